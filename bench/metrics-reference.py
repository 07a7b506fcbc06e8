"""The Python side of the `metrics pairs` comparison in bench/measurements.ts.

Scores a JSONL file of {"id", "prediction", "reference"} pairs with the reference Python
implementations that `anamnesis metrics pairs` ports, the way a Python user would call them, and
writes one JSON line per pair (so both sides read the same file and write their results):

- sacrebleu.sentence_bleu(prediction, [reference]) with its defaults (13a, exp smoothing);
- nltk corpus_bleu on MediTOD's preprocess_text tokens, BLEU-2 and BLEU-4, no smoothing;
- rouge_score RougeScorer(rouge1, rouge2, rougeL, rougeLsum), without and with the Porter stemmer.

It leaves out what `metrics pairs` also computes (HF evaluate's BLEU and lm-eval's per-document
rules, which call sacrebleu and rouge_score again), so the Python side does less work than ours and
the ratio the driver prints is, if anything, in Python's favour.

The references are not part of this repository: put sacrebleu, rouge_score and nltk on PYTHONPATH
(bench/measurements.ts takes `--python-refs DIR`). Exits 3 with one line when one cannot be imported.

    python3 bench/metrics-reference.py --input pairs.jsonl > scores.jsonl
"""

import argparse
import json
import string
import sys
import warnings


def load_references():
    """The three references, or exit 3 naming the one that is missing."""
    try:
        import sacrebleu
        from nltk.translate.bleu_score import corpus_bleu
        from rouge_score import rouge_scorer
    except ImportError as error:  # the driver prints this line as the reason for no ratio
        print(f"missing Python reference: {error}", file=sys.stderr)
        sys.exit(3)
    return sacrebleu, corpus_bleu, rouge_scorer


PUNCTUATION = {ch: f" {ch} " for ch in string.punctuation}


def meditod_tokens(text):
    """MediTOD's preprocess_text(text).split() (metrics/nlg_metrics.py)."""
    text = text.strip().replace("\t", " ").lower()
    return "".join(PUNCTUATION.get(ch, ch) for ch in text).split()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", required=True)
    args = parser.parse_args()
    sacrebleu, corpus_bleu, rouge_scorer = load_references()
    # nltk warns on every pair without a matching 4-gram; the score (0) is what MediTOD reports.
    warnings.filterwarnings("ignore")
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    nostem = rouge_scorer.RougeScorer(types, use_stemmer=False)
    stem = rouge_scorer.RougeScorer(types, use_stemmer=True)
    out = sys.stdout
    with open(args.input, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            pair = json.loads(line)
            prediction, reference = pair["prediction"], pair["reference"]
            hypothesis, target = meditod_tokens(prediction), meditod_tokens(reference)
            scores = {
                "id": pair["id"],
                "sacrebleu_sentence": sacrebleu.sentence_bleu(prediction, [reference]).score,
                "nltk_bleu2": corpus_bleu([[target]], [hypothesis], weights=(0.5, 0.5)),
                "nltk_bleu4": corpus_bleu([[target]], [hypothesis]),
                "rouge_nostem": {k: v.fmeasure for k, v in nostem.score(reference, prediction).items()},
                "rouge_stem": {k: v.fmeasure for k, v in stem.score(reference, prediction).items()},
            }
            out.write(json.dumps(scores) + "\n")


if __name__ == "__main__":
    main()
