#!/usr/bin/env python3
"""The systems compared, defined once for every benchmark tool (issue 22).

SYSTEMS below is the one definition; `ycsb` and `db_bench` render one
system as ycsb_vlsm properties or as db_bench_vlsm flags, one per line, so
both tools open a DB with the same RocksDB options
(tests/metrics/systems_test.py compares the OPTIONS files they write).

  systems.py names                       the systems, one per line
  systems.py ycsb SYSTEM [KEY=VALUE...]  ycsb_vlsm -p properties
  systems.py db_bench SYSTEM [KEY=VALUE...]  db_bench_vlsm flags
  systems.py options SYSTEM [KEY=VALUE...]   the RocksDB options it sets,
                                             a=b;c=d (for a vLSM system, on
                                             top of ConfigureVlsm's, which
                                             the renderings ask for)

KEY=VALUE overrides a shared setting for this rendering (an experiment's
settings apply to every system alike): max_background_jobs,
max_subcompactions, bloom_bits, block_cache. An unknown system or key exits
2 naming the choices.
"""
import os
import sys

# Every system, whatever drives it. Upstream's pending-compaction limits,
# write delay and write path are written out because db_bench's flag
# defaults differ from RocksDB's (hard limit 128 GiB, delayed_write_rate
# 8 MiB/s, pipelined writes on): left implicit, the same system would run
# differently under the two tools.
SHARED = {
    "compression": "kNoCompression",
    "num_levels": "5",
    "level_compaction_dynamic_level_bytes": "false",
    "use_direct_reads": "true",
    "use_direct_io_for_flush_and_compaction": "true",
    "max_background_jobs": "2",     # RocksDB: 1 flush + 1 compaction thread
    "max_subcompactions": "1",
    "soft_pending_compaction_bytes_limit": "64G",
    "hard_pending_compaction_bytes_limit": "256G",
    "delayed_write_rate": "16M",
    "enable_pipelined_write": "false",
    "table_cache_numshardbits": "6",  # RocksDB's; db_bench's flag says 4
    "block_cache": "64M",           # per DB (per region), LRU
    "bloom_bits": "0",              # 0: no filter, as the paper's RocksDB
}
# Keys of SHARED that are not RocksDB options-string keys: each tool has
# its own way to set them.
TABLE_KEYS = ("block_cache", "bloom_bits")
OVERRIDABLE = ("max_background_jobs", "max_subcompactions", "bloom_bits", "block_cache")

# RocksDB at the paper's sizing scaled to this machine: 64 MiB SSTs and
# memtables (2: 128 MiB of memtable), L1 256 MiB, f 8, L0 trigger 4.
ROCKSDB = {
    "compaction_pri": "kMinOverlappingRatio",
    "write_buffer_size": "64M",
    "max_write_buffer_number": "2",
    "target_file_size_base": "64M",
    "max_bytes_for_level_base": "256M",
    "max_bytes_for_level_multiplier": "8",
    "level0_file_num_compaction_trigger": "4",
}

# name -> (vLSM's (S_M, f, Phi[, L0 layout]) or None, the system's own
# RocksDB options). The L0 layout is "single" (the paper's, kVlsm) unless
# given. vLSM systems get ConfigureVlsm(S_M, f, Phi) (S_M-sized SSTs and
# memtables, L1 = f x S_M, L2 = Phi x L1; L0 trigger 1 and kVlsm, or for the
# ranged layout the depth trigger and kVlsmRanged); the options
# listed here win over it. Every system has the same 128 MiB memtable
# budget (the evaluation's rule): vLSM's own sizing would give it 2 x S_M,
# so it gets 128 MiB / S_M memtables. (db_bench's scripts used 2 x 8 MiB
# for vLSM before issue 22; the evaluation's 16 x 8 MiB is kept.)
# RocksDB-IO's compaction debt limits (the "rocksdb-io" system below).
IO_DEBT_LIMITS = {"soft_pending_compaction_bytes_limit": "1G",
                  "hard_pending_compaction_bytes_limit": "2G"}

# The ranged layout RocksDB-shaped with 4 x 32 MiB memtables (the
# "vlsm-ranged-rs32" system below, where the choice is explained).
RANGED_RS32 = {"write_buffer_size": "32M",
               "max_write_buffer_number": "4",
               "max_bytes_for_level_base": "256M",
               "level0_file_num_compaction_trigger": "8",
               "level0_slowdown_writes_trigger": "17",
               "level0_stop_writes_trigger": "21"}

# A preset's options, as tools/vlsm_preset_options prints what
# ConfigureVlsm(preset) sets on RocksDB's defaults, kept in presets/NAME.options
# (tests/eval/test_preset_options.py fails if the file is not what the tool
# prints now: rewrite it with `build/vlsm_preset_options --preset=NAME`).
# A system taking a preset takes vLSM's shape and these options from it, so
# the measured configuration is written once, in C++.
PRESETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "presets")
PRESET_OPTIONS = ("write_buffer_size", "max_write_buffer_number",
                  "max_bytes_for_level_base", "level0_file_num_compaction_trigger",
                  "level0_slowdown_writes_trigger", "level0_stop_writes_trigger",
                  "soft_pending_compaction_bytes_limit",
                  "hard_pending_compaction_bytes_limit")
LAYOUTS = {"kVlsm": "single", "kVlsmRanged": "ranged"}


def preset(name):
    """(vLSM's (S_M, f, Phi, L0 layout), the system's own options) of the
    preset NAME: S_M is target_file_size_base, f the level multiplier and Phi
    f times L2's additional multiplier (ConfigureVlsm's sizing)."""
    path = os.path.join(PRESETS, name + ".options")
    if not os.path.exists(path):
        sys.exit(f"systems.py: {path} is missing: write it with "
                 f"build/vlsm_preset_options --preset={name} > {path}")
    with open(path) as f:
        opts = dict(line.strip().partition("=")[::2] for line in f if "=" in line)
    growth = int(float(opts["max_bytes_for_level_multiplier"]))
    phi = growth * int(opts["max_bytes_for_level_multiplier_additional"].split(":")[1])
    shape = (opts["target_file_size_base"], growth, phi, LAYOUTS[opts["compaction_pri"]])
    return shape, {k: opts[k] for k in PRESET_OPTIONS}


SYSTEMS = {
    "rocksdb": (None, ROCKSDB),
    # RocksDB with no compaction debt: writes slow down once the estimated
    # pending compaction bytes pass 1 GiB and stop at 2 GiB. At the L0
    # trigger (4 x 64 MiB), L0->L1 alone owes those 256 MiB plus the
    # 256 MiB L1 it rewrites, about 512 MiB: 1 GiB is two such
    # compactions' worth of debt (docs/results/method.md).
    "rocksdb-io": (None, dict(ROCKSDB, **IO_DEBT_LIMITS)),
    # RocksDB with the ranged layout's files (S_M = 8 MiB at every level)
    # and nothing else changed: the control that splits a read gap between
    # the ranged layout and RocksDB into what the file size costs and what
    # the rest of the layout costs (issue 54, item 3; rest_reads.sh
    # --trees).
    "rocksdb-sm": (None, dict(ROCKSDB, target_file_size_base="8M")),
    "vlsm": (("8M", 8, 32), {"max_write_buffer_number": "16"}),
    # Sensitivity (the paper's Table 1 / Fig. 13): S_M and Phi.
    "vlsm-sst4": (("4M", 8, 32), {"max_write_buffer_number": "32"}),
    "vlsm-sst16": (("16M", 8, 32), {"max_write_buffer_number": "8"}),
    "vlsm-phi16": (("8M", 8, 16), {"max_write_buffer_number": "16"}),
    "vlsm-phi64": (("8M", 8, 64), {"max_write_buffer_number": "16"}),
    # The ranged L0 layout (issue 20) at the paper's sizes:
    # L0 compacts a key range once it is 8 flushes deep (8 x 8 MiB, about
    # L1's 64 MiB); flushes are split at L1's boundaries.
    "vlsm-ranged": (("8M", 8, 32, "ranged"), {"max_write_buffer_number": "16"}),
    # The ranged layout RocksDB-shaped (issue 20, item 4b): RocksDB's level
    # sizes (L1 256 MiB, f 8 at every level, so Phi = f) with 8 MiB files
    # everywhere, and L0 holding about L1's bytes per range before a step
    # (depth 32 x ~7 MiB flushes), so a step costs about what RocksDB's
    # tiered L0 does while taking one range. Stalls at 68 and 84 memtables'
    # worth of L0 (2 x depth + 4, + 16, as ConfigureVlsm sets them).
    "vlsm-ranged-rs": (("8M", 8, 8, "ranged"),
                       {"max_write_buffer_number": "16",
                        "max_bytes_for_level_base": "256M",
                        "level0_file_num_compaction_trigger": "32",
                        "level0_slowdown_writes_trigger": "68",
                        "level0_stop_writes_trigger": "84"}),
    # The same tree with fewer, larger memtables (issue 20, item 4b's
    # choice of memtable size and depth, d x M = L1 in each): a 32 MiB
    # flush is cut into up to 32 pieces of S_M/8 where vlsm-ranged-rs's
    # 8 MiB flush makes 8, so a range is about a quarter as wide for the
    # same bytes of L0. Stall triggers of 544 and 672 MiB as for
    # vlsm-ranged-rs; but the stall count rounds L0 up to whole memtables
    # (L0MemtablesWorth), so a slowdown starts once L0 is over 16 x 32 =
    # 512 MiB here and over 67 x 8 = 536 MiB there (and a stop over 640
    # and 664 MiB). The published runs used these triggers; 18 / 22 would
    # start them over 544 and 672 MiB.
    "vlsm-ranged-rs32": (("8M", 8, 8, "ranged"), RANGED_RS32),
    # vlsm-ranged-rs32 under RocksDB-IO's debt limits (issue 20: "the
    # ranged layout runs with RocksDB-IO's pending-compaction limits"); the
    # preset, VlsmOptions::Ranged(), until issue 52 and in the evaluation's
    # pages (docs/results/final-*):
    # its L0 at rest and its debt count against the same 1 and 2 GiB that
    # slow and stop RocksDB-IO, so its tail is compared on equal terms.
    # (vlsm-ranged-rs32 keeps upstream's 64 and 256 GiB, as its published
    # runs had.)
    "vlsm-ranged-rs32-io": (("8M", 8, 8, "ranged"), dict(RANGED_RS32, **IO_DEBT_LIMITS)),
    # The preset, VlsmOptions::Ranged(), read from what the call sets
    # (preset() below): vlsm-ranged-rs32 with RocksDB's room in L0 before a
    # stall since issue 52 (docs/results/preset-room-1region-12M).
    "vlsm-ranged-rs32-deep": preset("ranged"),
    "vlsm-ranged-rs64": (("8M", 8, 8, "ranged"),
                         {"write_buffer_size": "64M",
                          "max_write_buffer_number": "2",
                          "max_bytes_for_level_base": "256M",
                          "level0_file_num_compaction_trigger": "4",
                          "level0_slowdown_writes_trigger": "9",
                          "level0_stop_writes_trigger": "11"}),
    # Ablation (issue 20, item 5): what plain tuning gets. Stock picking
    # with vLSM's memtables and files (16 x 8 MiB), L0 trigger 8, L1 64 MiB,
    # f 8; RocksDB's default stall triggers.
    "rocksdb-small": (None, dict(ROCKSDB, write_buffer_size="8M",
                                 max_write_buffer_number="16",
                                 target_file_size_base="8M",
                                 max_bytes_for_level_base="64M",
                                 level0_file_num_compaction_trigger="8")),
}

# The paper's tree at a quarter of its bytes (issue 56, docs/results/
# grown-q4-4region-96M): five levels need L1 + L2 + L3 = 18.3 GiB per region
# at the paper's sizes (L1 256 MiB, f 8), more than this disk holds for two
# systems' four regions. A "-q4" system is its base system with every size
# divided by 4 (memtables, files, L1, S_M and the debt limits), the counts
# (memtables, L0 triggers, f, Phi) kept: its tree, its steps and its debt
# are the base system's at a quarter of the bytes, so 24 M records per
# region build the paper's shape (L1 to L3 full, L4 begun).
SCALED_BASES = ("rocksdb", "rocksdb-io", "vlsm-ranged-rs32-deep")
SCALED_SIZES = ("write_buffer_size", "target_file_size_base", "max_bytes_for_level_base",
                "soft_pending_compaction_bytes_limit", "hard_pending_compaction_bytes_limit")
QUARTER = 4

UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
# db_bench_vlsm flags named differently from the options-string key.
DB_BENCH_NAMES = {"max_subcompactions": "subcompactions"}
# db_bench_vlsm spells these differently from the options string.
DB_BENCH_ENUMS = {
    "compression": ("compression_type", {"kNoCompression": "none"}),
    "compaction_pri": ("compaction_pri", {"kByCompensatedSize": "0",
                                          "kOldestLargestSeqFirst": "1",
                                          "kOldestSmallestSeqFirst": "2",
                                          "kMinOverlappingRatio": "3"}),
}


class Usage(Exception):
    """Bad input: exit 2 with this message."""


def to_bytes(value):
    """"64M" -> 67108864; plain numbers pass through."""
    if value and value[-1] in UNITS:
        return str(int(value[:-1]) * UNITS[value[-1]])
    return value


def scaled_size(value, divisor):
    """"64M" / 4 -> "16M", "1G" / 4 -> "256M", "268435456" / 4 -> "64M":
    the largest unit that keeps the quotient whole."""
    quotient, rest = divmod(int(to_bytes(value)), divisor)
    assert not rest, f"{value} is not a multiple of {divisor}"
    for unit in "GMK":
        if quotient % UNITS[unit] == 0:
            return f"{quotient // UNITS[unit]}{unit}"
    return str(quotient)


def scaled(system, divisor):
    """(vlsm tuple, own options) of SYSTEM with every size divided by DIVISOR."""
    vlsm, own = SYSTEMS[system]
    if vlsm:
        vlsm = (scaled_size(vlsm[0], divisor),) + tuple(vlsm[1:])
    return vlsm, {k: scaled_size(v, divisor) if k in SCALED_SIZES else v for k, v in own.items()}


for _base in SCALED_BASES:
    SYSTEMS[f"{_base}-q{QUARTER}"] = scaled(_base, QUARTER)

def settings(system, overrides=()):
    """(vlsm tuple or None, shared settings, the system's own options) of
    SYSTEM with the KEY=VALUE OVERRIDES applied to the shared settings."""
    if system not in SYSTEMS:
        raise Usage(f"unknown system '{system}' (one of: {' '.join(SYSTEMS)})")
    shared = dict(SHARED)
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or key not in OVERRIDABLE:
            raise Usage(f"'{item}' is not KEY=VALUE with KEY one of: {' '.join(OVERRIDABLE)}")
        sized = key != "bloom_bits" and value[:-1].isdigit() and value[-1] in UNITS
        if not value.isdigit() and not sized:
            raise Usage(f"{key} must be a whole number{'' if key == 'bloom_bits' else ' (K/M/G allowed)'}, got '{value}'")
        shared[key] = value
    vlsm, own = SYSTEMS[system]
    return vlsm, shared, own


def l0_layout(vlsm):
    """A vLSM system's L0 layout: "single" (the paper's) or "ranged"."""
    return vlsm[3] if len(vlsm) > 3 else "single"


def rocksdb_options(shared, own):
    """The options-string part: shared RocksDB options, then the system's."""
    opts = {k: v for k, v in shared.items() if k not in TABLE_KEYS}
    opts.update(own)
    return opts


def ycsb(system, overrides=()):
    """ycsb_vlsm properties. Settings with a property of their own use it
    (max_background_jobs also sizes the shared thread pools; direct_io sets
    reads and flush/compaction alike); the rest go in rocksdb.options, which
    ycsb_vlsm applies after ConfigureVlsm, as db_bench_vlsm lets explicit
    flags win over --vlsm."""
    vlsm, shared, own = settings(system, overrides)
    opts = rocksdb_options(shared, own)
    props = []
    if vlsm:
        props += ["vlsm=true", f"vlsm.sst_size={vlsm[0]}", f"vlsm.growth={vlsm[1]}",
                  f"vlsm.phi={vlsm[2]}", f"vlsm.l0={l0_layout(vlsm)}"]
    assert opts.pop("compression") == "kNoCompression"
    props.append("compression=none")
    reads, writes = opts.pop("use_direct_reads"), opts.pop("use_direct_io_for_flush_and_compaction")
    assert reads == writes, "ycsb_vlsm's direct_io sets both"
    props.append(f"direct_io={reads}")
    props.append(f"rocksdb.num_levels={opts.pop('num_levels')}")
    props.append(f"max_background_jobs={opts.pop('max_background_jobs')}")
    props.append(f"block_cache_bytes={shared['block_cache']}")
    props.append(f"rocksdb.bloom_bits={shared['bloom_bits']}")
    props.append("rocksdb.options=" + ";".join(f"{k}={v}" for k, v in opts.items()))
    return [x for p in props for x in ("-p", p)]


def db_bench(system, overrides=()):
    """db_bench_vlsm flags: option names as flags, sizes in bytes."""
    vlsm, shared, own = settings(system, overrides)
    flags = []
    if vlsm:
        flags += ["--vlsm", f"--vlsm_sst_size={to_bytes(vlsm[0])}",
                  f"--vlsm_growth={vlsm[1]}", f"--vlsm_phi={vlsm[2]}",
                  f"--vlsm_l0={l0_layout(vlsm)}"]
    for key, value in rocksdb_options(shared, own).items():
        name, names = DB_BENCH_ENUMS.get(key, (DB_BENCH_NAMES.get(key, key), {}))
        flags.append(f"--{name}={names.get(value, to_bytes(value))}")
    flags.append(f"--cache_size={to_bytes(shared['block_cache'])}")
    # db_bench: a negative --bloom_bits means no filter.
    bits = int(shared["bloom_bits"])
    flags.append(f"--bloom_bits={bits if bits > 0 else -1}")
    return flags


def main(argv):
    try:
        if argv[1:2] == ["names"]:
            print("\n".join(SYSTEMS))
            return 0
        if len(argv) < 3 or argv[1] not in ("ycsb", "db_bench", "options"):
            raise Usage(__doc__.strip())
        if argv[1] == "options":
            _, shared, own = settings(argv[2], argv[3:])
            print(";".join(f"{k}={v}" for k, v in rocksdb_options(shared, own).items()))
            return 0
        render = ycsb if argv[1] == "ycsb" else db_bench
        print("\n".join(render(argv[2], argv[3:])))
        return 0
    except Usage as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
