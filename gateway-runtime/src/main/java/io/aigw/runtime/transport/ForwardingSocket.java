package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;

/**
 * A caller's socket as Helidon opened it, every method passed on to it; a workaround extends it and
 * overrides only what it changes (how the caller is read, how the socket closes).
 */
abstract class ForwardingSocket implements HelidonSocket {
    final HelidonSocket socket;

    ForwardingSocket(HelidonSocket socket) {
        this.socket = socket;
    }

    @Override
    public byte[] get() {
        return socket.get();
    }

    @Override
    public void close() {
        socket.close();
    }

    @Override
    public void idle() {
        socket.idle();
    }

    @Override
    public boolean isConnected() {
        return socket.isConnected();
    }

    @SuppressWarnings("removal") // Helidon no longer calls it; passed on as the socket answers it.
    @Override
    public int read(BufferData buffer) {
        return socket.read(buffer);
    }

    @Override
    public void write(BufferData buffer) {
        socket.write(buffer);
    }

    @Override
    public boolean protocolNegotiated() {
        return socket.protocolNegotiated();
    }

    @Override
    public String protocol() {
        return socket.protocol();
    }

    @Override
    public PeerInfo remotePeer() {
        return socket.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return socket.localPeer();
    }

    @Override
    public boolean isSecure() {
        return socket.isSecure();
    }

    @Override
    public String socketId() {
        return socket.socketId();
    }

    @Override
    public String childSocketId() {
        return socket.childSocketId();
    }

    @Override
    public void log(System.Logger logger, System.Logger.Level level, String format, Object... variables) {
        socket.log(logger, level, format, variables);
    }

    @Override
    public void log(System.Logger logger, System.Logger.Level level, String format, Throwable t,
                    Object... variables) {
        socket.log(logger, level, format, t, variables);
    }
}
