#!/usr/bin/python3
"""VAT calculator: predict insert-path I/O amplification of a leveled LSM.

Given a configuration (dataset size, memtable and SST size, level sizes or
f and Phi, L0 mode, merge amplification mu per level pair) it prints, per
level pair, the bytes read and written per user byte and the total I/O
amplification as the fork measures it:

    (flush bytes + compaction bytes read + compaction bytes written) / user bytes

With --measured REPORT.json (written by `db_bench_vlsm --vlsm_report=PATH`)
it prints prediction and measurement side by side and the measured mu.
The model and its assumptions are in docs/vat.md.

Standard library only; runs with /usr/bin/python3.
"""

import argparse
import json
import math
import re
import sys

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# Evaluation configurations (docs/vlsm.md, paper section 6). mu is not part of
# a preset: it defaults to 1 (full leveling) unless given.
PRESETS = {
    "rocksdb": {
        "memtable_bytes": 64 * MIB,
        "sst_bytes": 64 * MIB,
        "l1_bytes": 256 * MIB,
        "growth": 8.0,
        "phi": None,  # same as f
        "l0_mode": "tiered",
        "l0_trigger": 4,
        "num_levels": 7,
    },
    "vlsm": {
        "memtable_bytes": 8 * MIB,
        "sst_bytes": 8 * MIB,
        "l1_bytes": None,  # f * S_M, filled in by resolve_config
        "growth": 8.0,
        "phi": 32.0,
        "l0_mode": "fifo",
        "l0_trigger": 1,
        "num_levels": 7,
    },
}

# RocksDB's defaults where neither preset, report nor flag says otherwise.
DEFAULTS = {
    "l0_mode": "tiered",
    "l0_trigger": 4,
    "num_levels": 7,
    "live_fraction": 1.0,
    "convention": "rocksdb",
    "rocksdb_l1_bytes": 256 * MIB,  # max_bytes_for_level_base
}

# db_bench fillrandom draws `num` keys uniformly from [0, num): the expected
# share of distinct keys is 1 - (1 - 1/num)^num, about 1 - 1/e.
FILLRANDOM_LIVE_FRACTION = 1.0 - math.exp(-1.0)


class InputError(Exception):
    """Bad user input: reported as one line and exit code 2."""


# ---------------------------------------------------------------- parsing

_SIZE_UNITS = {
    "": 1, "b": 1,
    "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6,
    "g": 10**9, "gb": 10**9, "t": 10**12, "tb": 10**12,
    "kib": KIB, "mib": MIB, "gib": GIB, "tib": 1024 * GIB,
}


def parse_size(text):
    """'4.4G' -> 4400000000, '64MiB' -> 67108864. K/M/G/T are decimal,
    KiB/MiB/GiB/TiB binary, so a size can be written as the tools print it."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][0-9]+)?)\s*([A-Za-z]*)\s*",
                         text)
    if not match or match.group(2).lower() not in _SIZE_UNITS:
        raise argparse.ArgumentTypeError(
            f"not a size: {text!r} (examples: 4.4G, 64MiB, 8388608)")
    value = float(match.group(1)) * _SIZE_UNITS[match.group(2).lower()]
    if value <= 0:
        raise argparse.ArgumentTypeError(f"size must be positive: {text!r}")
    return int(round(value))


def parse_positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number: {text!r}")
    return value


def parse_growth(text):
    value = parse_positive_float(text)
    if value <= 1:
        raise argparse.ArgumentTypeError(
            f"a growth factor must be greater than 1: {text!r}")
    return value


def parse_fraction(text):
    """mu or live fraction: a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1: {text!r}")
    return value


def parse_live_fraction(text):
    value = parse_fraction(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return value


def parse_positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer: {text!r}")
    return value


def parse_num_levels(text):
    value = parse_positive_int(text)
    if value < 2:
        raise argparse.ArgumentTypeError("need at least 2 levels (L0 and L1)")
    return value


def parse_level_sizes(text):
    """'64MiB,2GiB,16GiB' -> target sizes of L1, L2, L3."""
    sizes = [parse_size(part) for part in text.split(",")]
    if not sizes:
        raise argparse.ArgumentTypeError("empty list")
    return sizes


def parse_mu_per_level(text):
    """'1:0.9,2:0.7' -> {1: 0.9, 2: 0.7}; keys are the pair's output level."""
    mu_by_level = {}
    for item in text.split(","):
        level_text, sep, mu_text = item.partition(":")
        if not sep:
            raise argparse.ArgumentTypeError(
                f"expected LEVEL:MU, got {item!r} (example: 1:0.9,2:0.7)")
        level = parse_positive_int(level_text.strip())
        mu_by_level[level] = parse_fraction(mu_text.strip())
    return mu_by_level


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse prints usage plus the message; the calculator prints only the
    line that names the bad argument, as scripts/ tools do."""

    def error(self, message):
        sys.stderr.write(f"vat.py: error: {message}\n")
        sys.exit(2)


def build_parser():
    parser = OneLineErrorParser(
        description="Predict LSM I/O amplification (VAT model, docs/vat.md) "
                    "and compare it with a db_bench_vlsm report.",
        epilog="Sizes: K/M/G/T are powers of 10, KiB/MiB/GiB/TiB powers of 2. "
               "Precedence: flags > --measured report's config > --preset > "
               "RocksDB defaults.")
    add = parser.add_argument
    add("--preset", choices=sorted(PRESETS),
        help="evaluation configuration: rocksdb (64 MiB SST and memtable, "
             "L1 256 MiB, f 8, tiered L0 trigger 4) or vlsm (S_M 8 MiB, f 8, "
             "Phi 32, FIFO L0)")
    add("--dataset-bytes", type=parse_size,
        help="user bytes written (key + value); default: the report's "
             "metrics.user_bytes")
    add("--live-fraction", type=parse_live_fraction,
        help="share of user bytes still live at the end (overwrites drop the "
             "rest); default 1, or 1-1/e for a fillrandom report")
    add("--memtable-bytes", type=parse_size,
        help="memtable (flush) size, S_M for vLSM")
    add("--sst-bytes", type=parse_size, help="SST size (default: memtable)")
    add("--level-sizes", type=parse_level_sizes, metavar="L1,L2,...",
        help="explicit target sizes of L1, L2, ... (overrides f, Phi, L1)")
    add("--l1-bytes", type=parse_size,
        help="L1 target (max_bytes_for_level_base); default f*SST for FIFO "
             "L0, 256MiB for tiered")
    add("--growth", "-f", type=parse_growth, help="growth factor f")
    add("--phi", type=parse_growth,
        help="growth factor from L1 to L2 (default: f)")
    add("--num-levels", type=parse_num_levels,
        help="levels including L0 (default 7); the last absorbs the rest")
    add("--l0", dest="l0_mode", choices=["fifo", "tiered"],
        help="fifo: each flushed file merges with all of L1 (vLSM); "
             "tiered: the trigger's worth of L0 files merge at once (RocksDB)")
    add("--l0-trigger", type=parse_positive_int,
        help="L0 files per L0->L1 compaction in tiered mode (default 4)")
    add("--mu", type=parse_fraction,
        help="merge amplification for every leveled pair L1->L2 and below "
             "(1 = full leveling, 0 = tiering; default 1)")
    add("--mu-per-level", type=parse_mu_per_level, metavar="LEVEL:MU,...",
        help="mu per pair, keyed by output level (1 = L0->L1); overrides --mu")
    add("--convention", choices=["rocksdb", "vat"],
        help="rocksdb: the lower level is at its target when data arrives "
             "(overlap g per byte); vat: it reaches its target with the "
             "arriving data (overlap g-1), VAT's 1+mu*(f-1). Default rocksdb")
    add("--measured", metavar="REPORT.json",
        help="db_bench_vlsm --vlsm_report output to compare with")
    add("--json", action="store_true", help="machine-readable output")
    return parser


# ---------------------------------------------------------- configuration

def load_report(path):
    try:
        with open(path, encoding="utf-8") as report_file:
            report = json.load(report_file)
    except OSError as error:
        raise InputError(f"argument --measured: cannot read {path}: "
                         f"{error.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputError(f"argument --measured: {path} is not JSON: {error}")
    metrics = report.get("metrics") if isinstance(report, dict) else None
    if not isinstance(metrics, dict):
        raise InputError(f"argument --measured: {path} has no 'metrics' object")
    user_bytes = metrics.get("user_bytes")
    if not isinstance(user_bytes, (int, float)) or user_bytes <= 0:
        raise InputError(
            f"argument --measured: {path}: metrics.user_bytes must be > 0")
    if not isinstance(metrics.get("levels"), list):
        raise InputError(
            f"argument --measured: {path}: metrics.levels must be a list")
    return report


def level_sizes_from_rocksdb_options(config):
    """Targets as RocksDB computes them with dynamic level bytes off:
    T1 = base, T(n) = T(n-1) * multiplier * additional[n-1]."""
    base = config["max_bytes_for_level_base"]
    multiplier = config.get("max_bytes_for_level_multiplier", 10)
    additional = config.get("max_bytes_for_level_multiplier_additional") or []
    num_levels = config.get("num_levels", DEFAULTS["num_levels"])
    sizes = [base]
    for level in range(2, num_levels):
        extra = additional[level - 1] if level - 1 < len(additional) else 1
        sizes.append(int(round(sizes[-1] * multiplier * extra)))
    return sizes


def report_number(container, key, where, minimum=0.0):
    """A numeric report field, or InputError naming it."""
    value = container.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or value < minimum:
        raise InputError(f"argument --measured: {where}.{key} must be a "
                         f"number >= {minimum:g}, got {value!r}")
    return value


NUMERIC_CONFIG_KEYS = {
    "write_buffer_size": 1, "target_file_size_base": 1, "sst_size": 1,
    "max_bytes_for_level_base": 1, "max_bytes_for_level_multiplier": 1,
    "growth": 1, "phi": 1, "num_levels": 2,
    "level0_file_num_compaction_trigger": 1}


def settings_from_report_config(config):
    """Map the report's `config` object onto the calculator's settings."""
    if not isinstance(config, dict):
        return {}
    for key, minimum in NUMERIC_CONFIG_KEYS.items():
        if key in config:
            report_number(config, key, "config", minimum)
    additional = config.get("max_bytes_for_level_multiplier_additional")
    if additional is not None and not (
            isinstance(additional, list)
            and all(isinstance(x, (int, float)) and x > 0 for x in additional)):
        raise InputError("argument --measured: config.max_bytes_for_level_"
                         "multiplier_additional must be a list of numbers > 0")
    settings = {}
    vlsm = config.get("vlsm")
    if vlsm is not None:
        settings["l0_mode"] = "fifo" if vlsm else "tiered"
    pairs = [("write_buffer_size", "memtable_bytes"),
             ("target_file_size_base", "sst_bytes"),
             ("sst_size", "sst_bytes"),
             ("max_bytes_for_level_multiplier", "growth"),
             ("growth", "growth"),
             ("phi", "phi"),
             ("num_levels", "num_levels"),
             ("level0_file_num_compaction_trigger", "l0_trigger")]
    for report_key, setting in pairs:
        if config.get(report_key) is not None:
            settings[setting] = config[report_key]
    if config.get("max_bytes_for_level_base"):
        settings["l1_bytes"] = config["max_bytes_for_level_base"]
        settings["level_sizes"] = level_sizes_from_rocksdb_options(config)
    benchmarks = config.get("benchmarks")
    if isinstance(benchmarks, str) and "fillrandom" in benchmarks.split(","):
        settings["live_fraction"] = FILLRANDOM_LIVE_FRACTION
        settings["live_fraction_source"] = "fillrandom draws keys from [0, num)"
    return settings


def flag_settings(args):
    names = ["dataset_bytes", "live_fraction", "memtable_bytes", "sst_bytes",
             "level_sizes", "l1_bytes", "growth", "phi", "num_levels",
             "l0_mode", "l0_trigger", "convention"]
    settings = {name: getattr(args, name) for name in names
                if getattr(args, name) is not None}
    # Flags describing the level shape replace the report's computed sizes.
    if any(name in settings for name in ("l1_bytes", "growth", "phi")) \
            and "level_sizes" not in settings:
        settings["level_sizes"] = None
    if "live_fraction" in settings:
        settings["live_fraction_source"] = "--live-fraction"
    return settings


def level_targets(settings):
    """Target sizes of L1 .. L(num_levels-1)."""
    num_levels = settings["num_levels"]
    explicit = settings.get("level_sizes")
    if explicit:
        return list(explicit[:num_levels - 1])
    growth = settings["growth"]
    phi = settings.get("phi") or growth
    l1_bytes = settings.get("l1_bytes")
    if l1_bytes is None:
        l1_bytes = (growth * settings["sst_bytes"]
                    if settings["l0_mode"] == "fifo"
                    else DEFAULTS["rocksdb_l1_bytes"])
    targets = [l1_bytes]
    for level in range(2, num_levels):
        targets.append(targets[-1] * (phi if level == 2 else growth))
    return [int(round(target)) for target in targets]


def resolve_config(args, report):
    """Layer defaults < preset < report config < flags into one config."""
    settings = {"live_fraction": DEFAULTS["live_fraction"],
                "live_fraction_source": "default",
                "convention": DEFAULTS["convention"],
                "num_levels": DEFAULTS["num_levels"]}
    if args.preset:
        settings.update({k: v for k, v in PRESETS[args.preset].items()
                         if v is not None})
    if report is not None:
        settings.update(settings_from_report_config(report.get("config")))
        settings.setdefault("dataset_bytes", report["metrics"]["user_bytes"])
    settings.update(flag_settings(args))

    if "dataset_bytes" not in settings:
        raise InputError("argument --dataset-bytes: required (or give "
                         "--measured REPORT.json with metrics.user_bytes)")
    if "memtable_bytes" not in settings:
        raise InputError("argument --memtable-bytes: required without "
                         "--preset or --measured")
    settings.setdefault("sst_bytes", settings["memtable_bytes"])
    settings.setdefault("l0_mode", DEFAULTS["l0_mode"])
    settings.setdefault("l0_trigger", 1 if settings["l0_mode"] == "fifo"
                        else DEFAULTS["l0_trigger"])
    if not settings.get("level_sizes") and "growth" not in settings:
        raise InputError("argument --growth: required (or --level-sizes, "
                         "--preset, --measured)")
    settings["level_targets"] = level_targets(settings)
    settings["mu_by_level"] = mu_by_output_level(
        args, len(settings["level_targets"]))
    return settings


def mu_by_output_level(args, deepest_level):
    """L0->L1 is 1 unless given per level: an L0 file spans the key space,
    so it overlaps all of L1 whichever files the picker chooses. Deeper
    pairs take --mu (default 1)."""
    mu_by_level = {1: 1.0}
    for level in range(2, deepest_level + 1):
        mu_by_level[level] = 1.0 if args.mu is None else args.mu
    for level, mu in (args.mu_per_level or {}).items():
        if level > deepest_level:
            raise InputError(f"argument --mu-per-level: level {level} is "
                             f"below the deepest level L{deepest_level}")
        mu_by_level[level] = mu
    return mu_by_level


# ------------------------------------------------------------------ model

def resident_bytes(live_bytes, targets):
    """Fill levels top-down to their targets; the deepest absorbs the rest.
    L0 is taken as empty (it drains between flushes)."""
    resident, remaining = [], live_bytes
    for index, target in enumerate(targets):
        last = index == len(targets) - 1
        held = remaining if last else min(target, remaining)
        resident.append(held)
        remaining -= held
    return resident


def upper_unit_bytes(output_level, config):
    """Bytes of the upper level whose key range one merge covers, as a share
    of the key space: a byte moved meets (lower level bytes / this) bytes.
    FIFO L0: one memtable; tiered L0: trigger memtables; Ln: all of Ln."""
    if output_level == 1:
        files = config["l0_trigger"] if config["l0_mode"] == "tiered" else 1
        return files * config["memtable_bytes"]
    return config["level_targets"][output_level - 2]


def lower_bytes_met(moved, resident_lower, fill_rate, unit):
    """Bytes of the lower level merged with `moved` incoming bytes at full
    leveling (mu = 1), integrated over the run.

    The lower level's content grows as fill_rate * arrived bytes until it
    holds resident_lower, then stays there (it passes data on, or the run
    ends). A byte arriving while the level holds C meets C / unit lower
    bytes: the merge covers unit's share of the key space."""
    if moved <= 0 or resident_lower <= 0:
        return 0.0
    fill_end = min(moved, resident_lower / fill_rate)
    filling = fill_rate * fill_end ** 2 / 2.0  # content rises linearly
    full = (moved - fill_end) * resident_lower
    return (filling + full) / unit


def convention_share(config, target_lower, unit):
    """Share of the lower level's content that a merge rewrites. rocksdb: all
    of it (a level is at its target when data arrives, since compaction out
    of it starts only above the target). vat: the target includes the
    arriving data, so only (g - 1) / g of it was there before; at a full
    level this turns 1 + mu*g into VAT's 1 + mu*(g - 1)."""
    if config["convention"] == "rocksdb":
        return 1.0
    return max(1.0 - unit / target_lower, 0.0)


def predict(config):
    """Per level pair bytes per user byte, and the total I/O amplification."""
    user_bytes = config["dataset_bytes"]
    live_bytes = user_bytes * config["live_fraction"]
    targets = config["level_targets"]
    resident = resident_bytes(live_bytes, targets)
    deepest = max((i + 1 for i, held in enumerate(resident) if held > 0),
                  default=1)
    pairs = []
    for output_level in range(1, deepest + 1):
        # Every flushed byte enters L1 (overwrites die in merges there or
        # below); deeper pairs carry only what is live below them.
        moved = (user_bytes if output_level == 1
                 else sum(resident[output_level - 1:]))
        fill_rate = config["live_fraction"] if output_level == 1 else 1.0
        unit = upper_unit_bytes(output_level, config)
        met_full = (lower_bytes_met(moved, resident[output_level - 1],
                                    fill_rate, unit)
                    * convention_share(config, targets[output_level - 1],
                                       unit))
        pairs.append(pair_row(output_level, config, targets, unit, moved,
                              met_full, resident, user_bytes))
    flush = 1.0  # every user byte is flushed once (SST format overhead aside)
    total = flush + sum(pair["io"] for pair in pairs)
    return {"flush": flush, "pairs": pairs, "io_amplification": total,
            "levels": deepest + 1}


def pair_row(output_level, config, targets, unit, moved, met_full, resident,
             user_bytes):
    mu = config["mu_by_level"][output_level]
    read_upper = moved / user_bytes
    read_lower = mu * met_full / user_bytes
    # Merges keep every byte they read (no overwrites modelled in writes).
    written = read_upper + read_lower
    return {
        "output_level": output_level,
        "pair": f"L{output_level - 1}->L{output_level}",
        "growth": targets[output_level - 1] / unit,
        "target_bytes": targets[output_level - 1],
        "resident_bytes": resident[output_level - 1],
        "mu": mu,
        "full_leveling_overlap": met_full / moved if moved else 0.0,
        "read_upper": read_upper,
        "read_lower": read_lower,
        "read": read_upper + read_lower,
        "written": written,
        "io": read_upper + read_lower + written,
    }


# --------------------------------------------------------------- measured

def measured_levels(report):
    """Per output level: bytes per user byte and the raw overlap ratio."""
    metrics = report["metrics"]
    user_bytes = float(metrics["user_bytes"])
    by_level = {}
    for entry in metrics["levels"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("level"), int) \
                or entry["level"] < 0:
            raise InputError("argument --measured: every metrics.levels entry "
                             "needs an integer 'level'")
        where = f"metrics.levels[{entry['level']}]"
        upper = report_number(entry, "read_from_upper_bytes", where)
        lower = report_number(entry, "read_from_level_bytes", where)
        written = report_number(entry, "written_bytes", where)
        by_level[entry["level"]] = {
            "read_upper": upper / user_bytes,
            "read_lower": lower / user_bytes,
            "written": written / user_bytes,
            "io": (upper + lower + written) / user_bytes,
            "lower_per_moved": lower / upper if upper else None,
        }
    return by_level


def measured_total(report, by_level):
    metrics = report["metrics"]
    if isinstance(metrics.get("io_amplification"), (int, float)):
        return float(metrics["io_amplification"])
    user_bytes = float(metrics["user_bytes"])
    parts = [metrics.get(key) for key in
             ("flush_bytes", "compaction_read_bytes", "compaction_write_bytes")]
    if all(isinstance(part, (int, float)) for part in parts):
        return sum(parts) / user_bytes
    return sum(level["io"] for level in by_level.values())


def measured_mu(pair, measured_level):
    """mu such that the model reproduces the measured lower-level bytes:
    (lower bytes read per byte moved) / (model's full-leveling overlap per
    byte moved). 1 = full leveling, 0 = tiering."""
    if not measured_level or measured_level["lower_per_moved"] is None:
        return None
    if pair["full_leveling_overlap"] <= 0:
        return None
    return measured_level["lower_per_moved"] / pair["full_leveling_overlap"]


def compare(prediction, report):
    by_level = measured_levels(report)
    flush_measured = by_level.get(0, {}).get("written")
    if flush_measured is None:
        flush_bytes = report["metrics"].get("flush_bytes")
        if isinstance(flush_bytes, (int, float)):
            flush_measured = flush_bytes / float(report["metrics"]["user_bytes"])
    rows = []
    deepest = max([p["output_level"] for p in prediction["pairs"]]
                  + [level for level in by_level if level > 0])
    pairs = {p["output_level"]: p for p in prediction["pairs"]}
    for output_level in range(1, deepest + 1):
        pair, measured = pairs.get(output_level), by_level.get(output_level)
        rows.append({
            "pair": f"L{output_level - 1}->L{output_level}",
            "output_level": output_level,
            "predicted_io": pair["io"] if pair else 0.0,
            "measured_io": measured["io"] if measured else None,
            "predicted_written": pair["written"] if pair else 0.0,
            "measured_written": measured["written"] if measured else None,
            "measured_lower_per_moved":
                measured["lower_per_moved"] if measured else None,
            "model_mu": pair["mu"] if pair else None,
            "measured_mu": measured_mu(pair, measured) if pair else None,
        })
    return {"flush": {"predicted": prediction["flush"],
                      "measured": flush_measured},
            "pairs": rows,
            "total": {"predicted": prediction["io_amplification"],
                      "measured": measured_total(report, by_level)}}


# ----------------------------------------------------------------- output

def human_bytes(value):
    for unit, size in (("TiB", 1024 * GIB), ("GiB", GIB), ("MiB", MIB),
                       ("KiB", KIB)):
        if value >= size:
            return f"{value / size:.4g} {unit}"
    return f"{value:.0f} B"


def describe_config(config):
    targets = ", ".join(f"L{i + 1} {human_bytes(t)}"
                        for i, t in enumerate(config["level_targets"]))
    l0 = config["l0_mode"]
    if l0 == "tiered":
        l0 += f" (trigger {config['l0_trigger']})"
    return [
        f"dataset {config['dataset_bytes'] / 1e9:.3g} GB "
        f"({human_bytes(config['dataset_bytes'])}), live fraction "
        f"{config['live_fraction']:.3f} ({config['live_fraction_source']})",
        f"memtable {human_bytes(config['memtable_bytes'])}, SST "
        f"{human_bytes(config['sst_bytes'])}, L0 {l0}, convention "
        f"{config['convention']}",
        f"targets: {targets}",
    ]


def format_number(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def print_prediction(config, prediction):
    for line in describe_config(config):
        print(line)
    print(f"levels with data: L0..L{prediction['levels'] - 1}")
    print("bytes per user byte:")
    # overlap: lower-level bytes met per byte moved at mu = 1, averaged over
    # the run (below g while the lower level is still filling).
    header = (f"{'pair':<8} {'growth':>7} {'overlap':>8} {'mu':>5} "
              f"{'resident':>10} {'rd upper':>9} {'rd lower':>9} "
              f"{'written':>8} {'io':>7}")
    print(header)
    print(f"{'flush':<8} {'':>7} {'':>8} {'':>5} {'':>10} {'':>9} {'':>9} "
          f"{prediction['flush']:>8.2f} {prediction['flush']:>7.2f}")
    for pair in prediction["pairs"]:
        print(f"{pair['pair']:<8} {pair['growth']:>7.3g} "
              f"{pair['full_leveling_overlap']:>8.2f} {pair['mu']:>5.2f} "
              f"{human_bytes(pair['resident_bytes']):>10} "
              f"{pair['read_upper']:>9.2f} {pair['read_lower']:>9.2f} "
              f"{pair['written']:>8.2f} {pair['io']:>7.2f}")
    print(f"total I/O amplification (flush + compaction read + written) / "
          f"user bytes: {prediction['io_amplification']:.2f}")


def print_comparison(comparison):
    print()
    print("predicted vs measured, I/O per user byte "
          "(mu measured = lower bytes per byte moved / model overlap):")
    print(f"{'pair':<8} {'pred io':>8} {'meas io':>8} {'gap':>7} "
          f"{'pred wr':>8} {'meas wr':>8} {'lower/moved':>11} "
          f"{'mu model':>8} {'mu meas':>8}")
    flush = comparison["flush"]
    print(f"{'flush':<8} {flush['predicted']:>8.2f} "
          f"{format_number(flush['measured']):>8} "
          f"{relative_gap(flush['predicted'], flush['measured']):>7}")
    for row in comparison["pairs"]:
        print(f"{row['pair']:<8} {row['predicted_io']:>8.2f} "
              f"{format_number(row['measured_io']):>8} "
              f"{relative_gap(row['predicted_io'], row['measured_io']):>7} "
              f"{row['predicted_written']:>8.2f} "
              f"{format_number(row['measured_written']):>8} "
              f"{format_number(row['measured_lower_per_moved']):>11} "
              f"{format_number(row['model_mu']):>8} "
              f"{format_number(row['measured_mu']):>8}")
    total = comparison["total"]
    print(f"{'total':<8} {total['predicted']:>8.2f} "
          f"{format_number(total['measured']):>8} "
          f"{relative_gap(total['predicted'], total['measured']):>7}")


def relative_gap(predicted, measured):
    """(predicted - measured) / measured, as text."""
    if measured is None or measured == 0:
        return "-"
    return f"{(predicted - measured) / measured * 100:+.0f}%"


def json_output(config, prediction, comparison):
    public_config = {key: value for key, value in config.items()
                     if key not in ("level_sizes", "mu_by_level")}
    public_config["mu_by_output_level"] = {
        str(level): mu for level, mu in sorted(config["mu_by_level"].items())}
    output = {"config": public_config, "prediction": prediction}
    if comparison is not None:
        output["comparison"] = comparison
    return json.dumps(output, indent=2, sort_keys=True)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        report = load_report(args.measured) if args.measured else None
        config = resolve_config(args, report)
        prediction = predict(config)
        comparison = compare(prediction, report) if report else None
    except InputError as error:
        sys.stderr.write(f"vat.py: error: {error}\n")
        return 2
    if args.json:
        print(json_output(config, prediction, comparison))
        return 0
    print_prediction(config, prediction)
    if comparison is not None:
        print_comparison(comparison)
    return 0


if __name__ == "__main__":
    sys.exit(main())
