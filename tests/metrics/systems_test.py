#!/usr/bin/env python3
"""scripts/bench/systems.py, the one definition of the systems: each system
rendered for db_bench_vlsm and for ycsb_vlsm opens a DB with the same
RocksDB options (compared in the OPTIONS file each tool's DB writes, every
DBOptions and CFOptions field but the tool's own, listed in TOOL_OWN with
why); an unknown system exits 2 naming the choices; "stock" is gone.

usage: systems_test.py REPO_ROOT WORK_DIR DB_BENCH_VLSM YCSB_VLSM
"""
import configparser
import glob
import os
import shutil
import subprocess
import sys
import unittest

ROOT = WORK = DB_BENCH = YCSB = None
COMPARED_SYSTEMS = ("rocksdb", "rocksdb-io", "rocksdb-sm", "vlsm", "vlsm-ranged", "vlsm-ranged-rs",
                    "vlsm-ranged-rs32", "rocksdb-small")
PRIORITY = {"vlsm": "kVlsm", "vlsm-ranged": "kVlsmRanged", "vlsm-ranged-rs": "kVlsmRanged",
            "vlsm-ranged-rs32": "kVlsmRanged"}
# Memtables per system where it is not 16 (vLSM's) or 2 (RocksDB's).
MEMTABLES = {"vlsm-ranged-rs32": "4", "rocksdb-small": "16"}

# Fields each tool sets for itself, not part of a system: where its files
# and logs go, its statistics, listeners and plug-ins (the table factory's
# fields are not compared: block cache and filter come from the
# definition's block_cache and bloom_bits, set through each tool's own
# flag). Anything else that differs is a setting the definition must pin
# in systems.py's SHARED, or add here with the reason.
TOOL_OWN = {
    "DBOptions": {
        "wal_dir", "db_log_dir", "create_if_missing", "create_missing_column_families",
        "statistics", "stats_dump_period_sec", "stats_persist_period_sec",
        "stats_history_buffer_size", "persist_stats_to_disk", "dump_malloc_stats",
        "info_log_level", "listeners", "env", "file_checksum_gen_factory",
        "sst_file_manager", "rate_limiter",
    },
    "CFOptions": {
        "comparator", "merge_operator", "compaction_filter", "compaction_filter_factory",
        "memtable_factory", "table_factory", "prefix_extractor",
        "table_properties_collectors", "sst_partitioner_factory",
        # Read only by FIFO compaction, which no system uses; db_bench fills
        # it from its own --fifo_* flags.
        "compaction_options_fifo",
    },
}


def read_options(db_dir):
    files = sorted(glob.glob(os.path.join(db_dir, "OPTIONS-*")))
    assert files, "no OPTIONS file in " + db_dir
    p = configparser.ConfigParser(strict=False, interpolation=None)
    p.optionxform = str
    p.read(files[-1])
    return {"DBOptions": dict(p["DBOptions"]), "CFOptions": dict(p['CFOptions "default"'])}


def render(tool, system):
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/systems.py"),
                           tool, system], capture_output=True, text=True)


def open_with_db_bench(system, db):
    flags = render("db_bench", system).stdout.split()
    subprocess.run([DB_BENCH, "--benchmarks=fillrandom", "--num=2000", "--value_size=200",
                    "--db=" + db, *flags], check=True, capture_output=True, timeout=300)
    return read_options(db)


def open_with_ycsb(system, db):
    props = render("ycsb", system).stdout.split("\n")
    props = [p for p in props if p]
    subprocess.run([YCSB, "load", "-P", os.path.join(ROOT, "ycsb/workloads/workloada"),
                    "-p", "recordcount=2000", "-p", "fieldcount=1", "-p", "fieldlength=200",
                    "-p", "lsm_metrics=false", *props, "-p", "rocksdb.dir=" + db],
                   check=True, capture_output=True, timeout=300)
    return read_options(os.path.join(db, "region-0"))


class Systems(unittest.TestCase):
    def test_both_renderings_open_the_same_options(self):
        for system in COMPARED_SYSTEMS:
            with self.subTest(system=system):
                base = os.path.join(WORK, system)
                shutil.rmtree(base, ignore_errors=True)
                os.makedirs(base)
                a = open_with_db_bench(system, os.path.join(base, "db_bench"))
                b = open_with_ycsb(system, os.path.join(base, "ycsb"))
                diffs = []
                for section, own in TOOL_OWN.items():
                    for key in sorted(set(a[section]) | set(b[section])):
                        if key in own:
                            continue
                        va, vb = a[section].get(key), b[section].get(key)
                        if va != vb:
                            diffs.append(f"{section}.{key}: db_bench {va} / ycsb {vb}")
                self.assertEqual(diffs, [], system)
                # The definition reached both: the system's own sizing.
                self.assertEqual(a["CFOptions"]["max_write_buffer_number"],
                                 MEMTABLES.get(system, "16" if system in PRIORITY else "2"))
                self.assertEqual(a["CFOptions"]["compaction_pri"],
                                 PRIORITY.get(system, "kMinOverlappingRatio"))

    def test_an_unknown_system_exits_2_naming_the_choices(self):
        for tool in ("ycsb", "db_bench", "options"):
            for name in ("stock", "rocksdb_io"):
                p = render(tool, name)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"unknown system '{name}' (one of: rocksdb rocksdb-io rocksdb-sm vlsm "
                              "vlsm-sst4 vlsm-sst16 vlsm-phi16 vlsm-phi64 vlsm-ranged "
                              "vlsm-ranged-rs vlsm-ranged-rs32 vlsm-ranged-rs32-io "
                              "vlsm-ranged-rs32-deep vlsm-ranged-rs64 "
                              "rocksdb-small rocksdb-q4 rocksdb-io-q4 "
                              "vlsm-ranged-rs32-deep-q4)",
                              p.stderr)
                self.assertEqual(p.stdout, "")

    def options(self, system):
        """The RocksDB options SYSTEM sets (systems.py options), as a dict."""
        p = render("options", system)
        self.assertEqual(p.returncode, 0, p.stderr)
        return dict(kv.split("=", 1) for kv in p.stdout.strip().split(";"))

    def test_the_io_variant_differs_only_in_rocksdb_ios_debt_limits(self):
        ranged, ranged_io, rocksdb_io = (self.options(s) for s in (
            "vlsm-ranged-rs32", "vlsm-ranged-rs32-io", "rocksdb-io"))
        limits = ("soft_pending_compaction_bytes_limit", "hard_pending_compaction_bytes_limit")
        for k in limits:
            self.assertEqual(ranged_io[k], rocksdb_io[k], k)
            self.assertNotEqual(ranged[k], rocksdb_io[k], k)
        self.assertEqual({k: v for k, v in ranged_io.items() if k not in limits},
                         {k: v for k, v in ranged.items() if k not in limits})

    def test_rocksdb_sm_differs_from_rocksdb_only_in_the_file_size(self):
        # The control of rest_reads.sh --trees ...,rocksdb-sm: RocksDB with the
        # ranged layout's S_M files, everything else RocksDB's.
        rocksdb, small_files = self.options("rocksdb"), self.options("rocksdb-sm")
        self.assertEqual(rocksdb.pop("target_file_size_base"), "64M")
        self.assertEqual(small_files.pop("target_file_size_base"), "8M")
        self.assertEqual(small_files, rocksdb)

    def test_an_unknown_override_exits_2(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/systems.py"),
                            "ycsb", "vlsm", "write_buffer_size=1M"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("'write_buffer_size=1M' is not KEY=VALUE with KEY one of:", p.stderr)

    def test_every_system_has_the_same_memtable_budget(self):
        # The evaluation's rule: 128 MiB of memtable whatever the system
        # (a quarter of it for the grown trees' "-q4" systems, issue 56).
        sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
        import systems  # noqa: E402
        for name in systems.SYSTEMS:
            vlsm, shared, own = systems.settings(name)
            opts = systems.rocksdb_options(shared, own)
            # A vLSM system's memtables are S_M unless it sets its own.
            size = int(systems.to_bytes(opts.get("write_buffer_size") or vlsm[0]))
            budget = (32 if name.endswith("-q4") else 128) << 20
            self.assertEqual(size * int(opts["max_write_buffer_number"]), budget, name)

    def test_a_q4_system_is_its_base_with_every_size_divided_by_4(self):
        # Issue 56's grown trees: sizes (memtables, files, L1, the debt
        # limits, S_M) are a quarter of the base system's; counts and
        # ratios (memtables, L0 triggers, f, Phi) and the shared settings
        # are the base's.
        sizes = {"rocksdb-q4": {"write_buffer_size": "16M", "target_file_size_base": "16M",
                                "max_bytes_for_level_base": "64M"},
                 "rocksdb-io-q4": {"write_buffer_size": "16M", "target_file_size_base": "16M",
                                   "max_bytes_for_level_base": "64M",
                                   "soft_pending_compaction_bytes_limit": "256M",
                                   "hard_pending_compaction_bytes_limit": "512M"},
                 "vlsm-ranged-rs32-deep-q4": {"write_buffer_size": "8M",
                                              "max_bytes_for_level_base": "64M",
                                              "soft_pending_compaction_bytes_limit": "16G",
                                              "hard_pending_compaction_bytes_limit": "64G"}}
        for name, expected in sizes.items():
            base, scaled = self.options(name[:-len("-q4")]), self.options(name)
            for key, value in expected.items():
                self.assertEqual(scaled.pop(key), value, (name, key))
                base.pop(key)
            self.assertEqual(scaled, base, name)
        ycsb = render("ycsb", "vlsm-ranged-rs32-deep-q4")
        self.assertIn("vlsm.sst_size=2M", ycsb.stdout.split("\n"))
        self.assertIn("vlsm.phi=8", ycsb.stdout.split("\n"))


if __name__ == "__main__":
    ROOT, WORK, DB_BENCH, YCSB = sys.argv[1:5]
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    unittest.main(argv=sys.argv[:1], verbosity=2)
