/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LOSSLESS_CHANNEL_H
#define AICLUSTER_LOSSLESS_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>

namespace ns3
{

class LosslessNetDevice;

/**
 * \ingroup aicluster
 * \brief Full-duplex point-to-point channel between two LosslessNetDevices.
 */
class LosslessChannel : public Channel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    LosslessChannel();

    /** \param device one of the two ends */
    void Attach(Ptr<LosslessNetDevice> device);
    /**
     * Put a packet on the wire; the peer receives its last bit after txTime + delay.
     * \param p packet \param from sending device \param txTime serialisation time
     */
    void Transmit(Ptr<Packet> p, LosslessNetDevice* from, Time txTime);

    /** \return propagation delay */
    Time GetDelay() const
    {
        return m_delay;
    }

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    Time m_delay;                        //!< propagation delay
    Ptr<LosslessNetDevice> m_devices[2]; //!< the two ends
};

} // namespace ns3

#endif // AICLUSTER_LOSSLESS_CHANNEL_H
