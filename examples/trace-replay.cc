// Scaffolding: replaced by the real example.
#include "ns3/core-module.h"
int main(int argc, char* argv[]) { ns3::CommandLine cmd; cmd.Parse(argc, argv); return 0; }
