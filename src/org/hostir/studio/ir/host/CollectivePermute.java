package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code CollectivePermute} (csrc/multidevice/communication.h): within {@code team}, every device sends
 * {@code input} to the team member at index {@code sendPeer} and receives {@code output} from the one at index
 * {@code recvPeer}, as one coalesced send/recv pair (postCollectivePermute); a device that is both its own peers
 * copies locally. The peers are team indices evaluated per loop iteration (dispatchSwizzle1D), not device ids.
 */
public record CollectivePermute(int id, TensorView output, TensorView input, List<Integer> team, Scalar sendPeer,
                                Scalar recvPeer, CommunicatorBackend backend) implements HostNode {
    public CollectivePermute {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(input, "input");
        team = DeviceMesh.ids(team);
        Objects.requireNonNull(sendPeer, "sendPeer");
        Objects.requireNonNull(recvPeer, "recvPeer");
        Objects.requireNonNull(backend, "backend");
    }
}
