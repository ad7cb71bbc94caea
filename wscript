# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# SPDX-License-Identifier: GPL-2.0-only
#
# aicluster for waf-era ns-3 trees (ns-3.35 and older, and forks of them): put this folder
# at src/aicluster or contrib/aicluster and run ./waf configure --enable-examples && ./waf.
#
# There is one list of files: the CMake build's. This script reads the component folders and
# ns-3 module dependencies from CMakeLists.txt, the sources and headers from each folder's
# sources.cmake and the examples from examples/examples.cmake, so nothing is listed twice.
# The Catch2 test suite (test/) is built by the CMake builds only.

import os
import re


def _read(path):
    with open(path) as f:
        # CMake comments run from '#' to the end of the line (no '#' inside our file names).
        return re.sub(r'#[^\n]*', '', f.read())


def _cmake_list(text, var, what):
    """Items of every `set(VAR ...)` / `list(APPEND VAR ...)` in text, in order."""
    items = []
    pattern = r'(?:set|list)\s*\(\s*(?:APPEND\s+)?' + var + r'\b([^)]*)\)'
    for match in re.finditer(pattern, text):
        for item in match.group(1).split():
            if '$' in item:
                raise ValueError('%s: cannot expand %r in %s (write plain relative paths)'
                                 % (what, item, var))
            items.append(item)
    return items


def _aicluster_files(top):
    """Version, ns-3 module dependencies, sources, headers and examples of the module."""
    cmakelists = os.path.join(top, 'CMakeLists.txt')
    text = _read(cmakelists)
    version = re.search(r'set\s*\(\s*AICLUSTER_VERSION\s+([^\s)]+)', text)
    libs = re.search(r'set\s*\(\s*AICLUSTER_NS3_LIBS_TEXT\s*\[\[(.*?)\]\]', text, re.S)
    components = re.search(r'foreach\s*\(\s*component\s+([^)]*)\)', text)
    if not (version and libs and components):
        raise ValueError('%s: expected AICLUSTER_VERSION, AICLUSTER_NS3_LIBS_TEXT and the '
                         'foreach(component ...) list of component folders' % cmakelists)
    files = {
        'version': version.group(1),
        'modules': re.findall(r'\$\{lib([^}]+)\}', libs.group(1)),
        'sources': [],
        'headers': [],
    }
    for component in components.group(1).split():
        path = os.path.join(top, component, 'sources.cmake')
        part = _read(path)
        files['sources'] += _cmake_list(part, 'AICLUSTER_SOURCES', path)
        files['headers'] += _cmake_list(part, 'AICLUSTER_HEADERS', path)
    examples = os.path.join(top, 'examples', 'examples.cmake')
    files['examples'] = _cmake_list(_read(examples), 'AICLUSTER_EXAMPLES', examples)
    return files


def configure(conf):
    # nlohmann-json is header-only: Debian/Ubuntu nlohmann-json3-dev.
    have_json = conf.check_cxx(header_name='nlohmann/json.hpp', mandatory=False,
                               define_name='HAVE_NLOHMANN_JSON',
                               msg='Checking for nlohmann/json.hpp (aicluster)')
    conf.report_optional_feature('aicluster', 'aicluster (needs nlohmann-json)',
                                 bool(have_json), 'nlohmann/json.hpp not found '
                                 '(install nlohmann-json3-dev)')
    if not have_json:
        conf.env['MODULES_NOT_BUILT'].append('aicluster')
        return
    # The module is C++17; old trees default to C++11/14.
    if not any(flag.startswith('-std=') for flag in conf.env['CXXFLAGS']):
        conf.env.append_value('CXXFLAGS', '-std=c++17')


def build(bld):
    if 'aicluster' in bld.env['MODULES_NOT_BUILT']:
        return
    files = _aicluster_files(bld.path.abspath())
    defines = ['AICLUSTER_SOURCE_DIR="%s"' % bld.path.abspath(),
               'AICLUSTER_VERSION="%s"' % files['version']]

    module = bld.create_ns3_module('aicluster', files['modules'])
    module.source = files['sources']
    module.defines = defines
    module.export_defines = defines

    headers = bld(features='ns3header')
    headers.module = 'aicluster'
    headers.source = files['headers']

    if bld.env['ENABLE_EXAMPLES']:
        for name in files['examples']:
            program = bld.create_ns3_program(name, ['aicluster'] + files['modules'])
            program.source = 'examples/%s.cc' % name
            program.defines = defines
