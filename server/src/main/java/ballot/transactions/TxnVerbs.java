package ballot.transactions;

import ballot.net.Codecs;
import ballot.net.Verb;

/**
 * The internode requests of transactions (ids 400–499): steps of one partition sent to the node that coordinates its
 * Paxos rounds, answered with their replies (TxnStepCodec).
 */
final class TxnVerbs {
    static final Verb<byte[], byte[]> STEP = new Verb<>(400, "TXN_STEP", Codecs.BYTES, Codecs.BYTES);

    private TxnVerbs() {}
}
