"""The stakes a coin table may have, in Domino Coin per seat: the ledger's rule, which the
table options offer (games/options.py STAKES). A free table (0) has no stake. Plain Python:
the table options read it before any model is loaded."""

TABLE_STAKES = (25, 50, 100, 250)
