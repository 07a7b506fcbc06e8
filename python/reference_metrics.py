"""The Python side of Anamnesis's bridge to the reference model metrics (`--bertscore python`,
`--bleurt python`): it runs the user's own installation of bert-score and of BLEURT, so the figures
are the reference's by construction, and reports what produced them.

Reads JSON lines {"prediction": str, "reference": str} on standard input and writes one JSON object
on standard output:

    bertscore: {"metric", "hashcode", "versions", "precision", "recall", "f1", "f1_mean"}
    bleurt:    {"metric", "checkpoint", "versions", "scores"}
    medcon:    {"metric", "versions", "scores"}

Scores are the reference's float32 values as Python floats (NaN written as null); "f1_mean" is
`F1.mean().item()` computed by torch on the same tensor, as MediTOD reports it. Everything the
libraries print goes to standard error, so standard output holds the result alone.

Exit codes: 0 done; 3 a package is missing (one line on standard error says which and how to
install it); 4 the input is not JSON lines of pairs.

    python3 reference_metrics.py bertscore --model-type roberta-large --num-layers 17 \
        [--idf] [--rescale-with-baseline --lang en [--baseline-path FILE]] [--batch-size 64] \
        [--calls one|each] < pairs.jsonl
    python3 reference_metrics.py bleurt --checkpoint bleurt-base-512|BLEURT-20|DIR < pairs.jsonl
    python3 reference_metrics.py medcon --quickumls DIR --semantic-groups SemGroups.txt < pairs.jsonl

MEDCON is ACI-Bench's UMLS concept F1 (its `umls` figure): QuickUMLS over the user's index (window 5,
threshold 1, syntax ignored), keeping the semantic types of every group of NLM's SemGroups file except
the eight ACI-Bench leaves out; per pair, the reference terms with a concept found in the prediction
over the prediction's terms (precision) and the reference's (recall), and 0 where a ratio is undefined.
"""

import argparse
import contextlib
import json
import math
import os
import sys

MISSING = 3
BLEURT_INSTALL = "pip install git+https://github.com/google-research/bleurt.git"
BAD_INPUT = 4


def fail(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


def need(module, package, install):
    """Imports a module, or exits MISSING naming the package and how to install it."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as error:
        fail(MISSING, f"{package} is not installed for {sys.executable} ({error}); install it with {install}")


def read_pairs():
    candidates, references = [], []
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            pair = json.loads(line)
            candidate, reference = pair["prediction"], pair["reference"]
        except (ValueError, KeyError, TypeError):
            fail(BAD_INPUT, f"standard input line {number}: expected {{\"prediction\", \"reference\"}}")
        if not isinstance(candidate, str) or not isinstance(reference, str):
            fail(BAD_INPUT, f"standard input line {number}: prediction and reference must be strings")
        candidates.append(candidate)
        references.append(reference)
    return candidates, references


def floats(values):
    return [None if math.isnan(value) else value for value in values]


def version_of(distribution):
    try:
        from importlib.metadata import version

        return version(distribution)
    except Exception:  # noqa: BLE001 - a version is informative only
        return None


def bertscore(args, candidates, references):
    bert_score = need("bert_score", "bert-score", "pip install bert-score")
    transformers = need("transformers", "transformers", "pip install transformers")
    torch = need("torch", "torch", "pip install torch")
    baseline = {"baseline_path": args.baseline_path} if args.baseline_path else {}
    scorer = bert_score.BERTScorer(
        model_type=args.model_type,
        num_layers=args.num_layers,
        idf=args.idf,
        batch_size=args.batch_size,
        lang=args.lang,
        rescale_with_baseline=args.rescale_with_baseline,
        **baseline,
    )
    # bert_score.score(…) and HF evaluate's "bertscore" both run a BERTScorer with these settings.
    groups = [(0, len(candidates))] if args.calls == "one" else [(i, i + 1) for i in range(len(candidates))]
    parts = []
    for start, end in groups:
        if args.idf:  # bert_score.score computes the idf of each call from that call's references
            scorer.compute_idf(references[start:end])
        parts.append(scorer.score(candidates[start:end], references[start:end], batch_size=args.batch_size))
    precision = torch.cat([part[0] for part in parts]) if parts else torch.zeros(0)
    recall = torch.cat([part[1] for part in parts]) if parts else torch.zeros(0)
    f1 = torch.cat([part[2] for part in parts]) if parts else torch.zeros(0)
    return {
        "metric": "bertscore",
        "hashcode": scorer.hash,
        "versions": {
            "bert_score": bert_score.__version__,
            "bert_score_distribution": version_of("bert-score"),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "python": sys.version.split()[0],
        },
        "precision": floats(precision.tolist()),
        "recall": floats(recall.tolist()),
        "f1": floats(f1.tolist()),
        "f1_mean": None if len(f1) == 0 else f1.mean().item(),
    }


def bleurt(args, candidates, references):
    if os.path.isdir(args.checkpoint):
        score = need("bleurt.score", "BLEURT", BLEURT_INSTALL)
        scores = score.BleurtScorer(args.checkpoint).score(references=references, candidates=candidates)
        through = {}
    else:
        evaluate = need("evaluate", "evaluate", "pip install evaluate")
        need("bleurt.score", "BLEURT", BLEURT_INSTALL)
        metric = evaluate.load("bleurt", args.checkpoint, module_type="metric")
        scores = metric.compute(predictions=candidates, references=references)["scores"]
        through = {"evaluate": evaluate.__version__}
    tensorflow = need("tensorflow", "tensorflow", "pip install tensorflow")
    return {
        "metric": "bleurt",
        "checkpoint": args.checkpoint,
        "versions": {
            "bleurt": version_of("BLEURT"),
            "tensorflow": tensorflow.__version__,
            "python": sys.version.split()[0],
            **through,
        },
        "scores": floats([float(value) for value in scores]),
    }


# The semantic groups whose types ACI-Bench's MEDCON does not count.
MEDCON_EXCLUDED_GROUPS = {
    "Procedures",
    "Organizations",
    "Occupations",
    "Living Beings",
    "Objects",
    "Geographic Areas",
    "Concepts & Ideas",
    "Activities & Behaviors",
}


def medcon_types(path):
    """The semantic type ids of a SemGroups file (GROUP|Group name|TUI|Type name) outside the excluded groups."""
    types = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("|")
            if len(fields) >= 3 and fields[1] not in MEDCON_EXCLUDED_GROUPS:
                types.append(fields[2])
    return types


def concepts_of(matcher, text):
    """Each matched term with its concepts, and every concept in the order first matched."""
    concepts, cuis = {}, []
    for candidates in matcher.match(text, ignore_syntax=True):
        for match in candidates:
            if match["cui"] not in concepts.get(match["term"], []):
                concepts[match["term"]] = concepts.get(match["term"], []) + [match["cui"]]
                cuis.append(match["cui"])
    return concepts, cuis


def concept_f1(matcher, reference, prediction):
    reference_concepts, _ = concepts_of(matcher, reference)
    prediction_concepts, prediction_cuis = concepts_of(matcher, prediction)
    found = sum(1 for cuis in reference_concepts.values() if any(cui in prediction_cuis for cui in cuis))
    try:
        precision = found / len(prediction_concepts)
        recall = found / len(reference_concepts)
        return 2 * precision * recall / (precision + recall)
    except ZeroDivisionError:
        return 0.0


def medcon(args, candidates, references):
    quickumls = need("quickumls", "QuickUMLS", "pip install quickumls (and build its index from your UMLS release)")
    matcher = quickumls.QuickUMLS(args.quickumls, window=5, threshold=1, accepted_semtypes=medcon_types(args.semantic_groups))
    return {
        "metric": "medcon",
        "versions": {"quickumls": version_of("quickumls"), "python": sys.version.split()[0]},
        "scores": [concept_f1(matcher, reference, prediction) for prediction, reference in zip(candidates, references)],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    metrics = parser.add_subparsers(dest="metric", required=True)
    bert = metrics.add_parser("bertscore")
    bert.add_argument("--model-type", required=True)
    bert.add_argument("--num-layers", type=int, required=True)
    bert.add_argument("--idf", action="store_true")
    bert.add_argument("--rescale-with-baseline", action="store_true")
    bert.add_argument("--baseline-path")
    bert.add_argument("--lang", default="en")
    bert.add_argument("--batch-size", type=int, default=64)
    bert.add_argument("--calls", choices=["one", "each"], default="one")
    blrt = metrics.add_parser("bleurt")
    blrt.add_argument("--checkpoint", required=True)
    umls = metrics.add_parser("medcon")
    umls.add_argument("--quickumls", required=True)
    umls.add_argument("--semantic-groups", required=True)
    args = parser.parse_args()
    candidates, references = read_pairs()
    result_stream = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        run = {"bertscore": bertscore, "bleurt": bleurt, "medcon": medcon}[args.metric]
        result = run(args, candidates, references)
    json.dump(result, result_stream)
    result_stream.write("\n")


if __name__ == "__main__":
    main()
