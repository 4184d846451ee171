package ballot.tools.workload;

import java.math.BigDecimal;

/** A bank account of the ledger: its partition key (bank code, account number) and opening balance. */
record Account(String bic, String ban, BigDecimal balance) {}
