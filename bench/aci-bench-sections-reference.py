"""The official ACI-Bench section tagger's divisions of every bundled note, for tests/metrics/aci-bench-sections.test.ts.

Imports `SectionTagger` from the user's checkout of wyim/aci-bench (`baselines/sectiontagger.py`, which
needs only Python's standard library) and, for every note the bundled data holds — the gold notes of
every split and the six shipped predictions — records what `divide_note_by_metasections` returns for
it, the way `evaluation/evaluate_fullnote.py` calls it (`__lf1__` read as a line break first): each
division's name and its start and end offsets. Offsets are Python's (code points); the test turns them
into text to compare, so the two languages' string lengths never meet.

    python3 bench/aci-bench-sections-reference.py --checkout ../aci-bench > tests/fixtures/aci-bench-divisions.json
"""

import argparse
import csv
import json
import os
import sys

SPLITS = ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2", "clef_taskC_test3"]


def notes_of(path):
    """The `note` column of a CSV, in row order."""
    with open(path, newline="", encoding="utf-8") as handle:
        return [row["note"] for row in csv.DictReader(handle)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkout", required=True, help="a checkout of wyim/aci-bench (its baselines/sectiontagger.py is imported)")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "data", "aci-bench"))
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.checkout, "baselines"))
    from sectiontagger import SectionTagger  # noqa: E402 — the checkout is only known now

    tagger = SectionTagger()
    files = [os.path.join("challenge_data", f"{split}.csv") for split in SPLITS]
    files += sorted(os.path.join("predictions", name) for name in os.listdir(os.path.join(args.data, "predictions")))
    out = {"provenance": "baselines/sectiontagger.py of wyim/aci-bench, divide_note_by_metasections(note.replace('__lf1__', '\\n'))", "files": {}}
    for relative in files:
        divided = []
        for note in notes_of(os.path.join(args.data, relative)):
            text = note.replace("__lf1__", "\n")
            divided.append([[label, start, end] for label, _, _, start, _, end in tagger.divide_note_by_metasections(text)])
        out["files"][relative] = divided
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
