package ballot.cql.transport;

import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.Opcode;

/**
 * Hears what clients ask for and which errors they are sent, so that the node can count them without this module
 * depending on a metrics library. Called on the connections' event loops, once per request and per error: it must be
 * cheap, and must neither block nor throw.
 */
public interface RequestObserver {
    RequestObserver NONE = new RequestObserver() {
        @Override
        public void received(Opcode opcode) {}

        @Override
        public void errorSent(ErrorCode code) {}
    };

    /** A well-framed request envelope arrived, before its body is decoded or the connection's state is checked. */
    void received(Opcode opcode);

    /** An ERROR response went out, including the PROTOCOL_ERROR that precedes closing a connection. */
    void errorSent(ErrorCode code);
}
