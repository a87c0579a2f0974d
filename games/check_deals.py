"""Check that every deal of a Joker match is the deal the site committed to.

Usage: python3 check_deals.py RECORD.json FAIRNESS.json
Needs only Python 3: no part of the site.
"""
import hashlib
import json
import sys


def deal_text(deal):
    keys = ("columns", "hands") if "columns" in deal else ("hands", "trump_card")
    return json.dumps({k: deal.get(k) for k in keys}, sort_keys=True, separators=(",", ":"))


def main(record_path, fairness_path):
    with open(record_path, encoding="utf-8") as f:
        record = json.load(f)
    with open(fairness_path, encoding="utf-8") as f:
        fairness = json.load(f)
    all_good = True
    for i, deal in enumerate(record["deals"]):
        entry = fairness.get(str(i), {})
        if "salt" not in entry:
            print(f"deal {i + 1}: not revealed yet")
            all_good = False
            continue
        digest = hashlib.sha256(f"{deal_text(deal)}|{entry['salt']}".encode()).hexdigest()
        good = digest == entry["commitment"]
        all_good = all_good and good
        print(f"deal {i + 1}: {'verified' if good else 'DOES NOT MATCH its commitment'}")
    return 0 if all_good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
