package ballot.paxos.coordinator;

/**
 * What a request holds on its node while it is being worked on: the node's admission slot (docs/admission.md). A
 * request queued behind its partition's round does no work, so it gives the slot back; it takes it back, without
 * waiting, when it leads a round. The other requests of a batch ride on their lead's round and its slot.
 */
public interface WorkSlot {
    WorkSlot NONE = new WorkSlot() {
        @Override
        public void giveBack() {}

        @Override
        public void takeBack() {}
    };

    void giveBack();

    void takeBack();
}
