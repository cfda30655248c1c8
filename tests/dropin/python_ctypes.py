"""A Python user of the fork through ctypes and the C API (issue 23): loads
librocksdb.so.9 with no allocator preloaded (a jemalloc-linked library fails
here with "cannot allocate memory in static TLS block"), turns vLSM on with
rocksdb_options_configure_vlsm, writes, reads back, and checks that a
conflicting option is refused with a message that names it; and turns on
the recommended ranged layout with its one call,
rocksdb_options_configure_vlsm_ranged.

usage: python3 python_ctypes.py LIBRARY_PATH WORK_DIR
"""
import ctypes
import os
import sys

ROCKSDB_K_VLSM_COMPACTION_PRI = 5  # rocksdb/vlsm_c.h
ROCKSDB_K_VLSM_RANGED_COMPACTION_PRI = 6


def load(path):
    lib = ctypes.CDLL(path)
    p, i, u64, s = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_char_p
    err = ctypes.POINTER(ctypes.c_char_p)
    sz = ctypes.c_size_t
    signatures = {
        "rocksdb_options_create": (p, []),
        "rocksdb_options_destroy": (None, [p]),
        "rocksdb_options_set_create_if_missing": (None, [p, ctypes.c_ubyte]),
        "rocksdb_options_set_level_compaction_dynamic_level_bytes": (None, [p, ctypes.c_ubyte]),
        "rocksdb_options_get_compaction_pri": (i, [p]),
        "rocksdb_options_configure_vlsm": (None, [p, u64, i, i, err]),
        "rocksdb_options_configure_vlsm_ranged": (None, [p, err]),
        "rocksdb_options_check_vlsm": (None, [p, err]),
        "rocksdb_open": (p, [p, s, err]),
        "rocksdb_close": (None, [p]),
        "rocksdb_writeoptions_create": (p, []),
        "rocksdb_writeoptions_destroy": (None, [p]),
        "rocksdb_readoptions_create": (p, []),
        "rocksdb_readoptions_destroy": (None, [p]),
        "rocksdb_put": (None, [p, p, s, sz, s, sz, err]),
        "rocksdb_get": (ctypes.POINTER(ctypes.c_char), [p, p, s, sz, ctypes.POINTER(sz), err]),
        "rocksdb_free": (None, [p]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def take_error(lib, err):
    """The message in err (or None), freed as the C API asks."""
    if not err:
        return None
    message = ctypes.cast(err, ctypes.c_char_p).value.decode()
    lib.rocksdb_free(err)
    return message


def main(library, work):
    lib = load(library)
    err = ctypes.c_char_p()
    opt = lib.rocksdb_options_create()
    lib.rocksdb_options_configure_vlsm(opt, 64 << 10, 8, 32, ctypes.byref(err))
    assert not err, take_error(lib, err)
    assert lib.rocksdb_options_get_compaction_pri(opt) == ROCKSDB_K_VLSM_COMPACTION_PRI
    lib.rocksdb_options_set_create_if_missing(opt, 1)
    db = lib.rocksdb_open(opt, os.path.join(work, "db").encode(), ctypes.byref(err))
    assert db and not err, take_error(lib, err)

    wo, ro = lib.rocksdb_writeoptions_create(), lib.rocksdb_readoptions_create()
    values = {b"key%06d" % k: b"value-%d" % (k * k) for k in range(5000)}
    for key, value in values.items():
        lib.rocksdb_put(db, wo, key, len(key), value, len(value), ctypes.byref(err))
        assert not err, take_error(lib, err)
    for key in list(values)[::101]:
        length = ctypes.c_size_t()
        got = lib.rocksdb_get(db, ro, key, len(key), ctypes.byref(length), ctypes.byref(err))
        assert not err, take_error(lib, err)
        assert got, f"{key!r} not found"
        value = ctypes.string_at(got, length.value)
        lib.rocksdb_free(ctypes.cast(got, ctypes.c_void_p))
        assert value == values[key], f"{key!r}: {value!r} != {values[key]!r}"
    lib.rocksdb_readoptions_destroy(ro)
    lib.rocksdb_writeoptions_destroy(wo)
    lib.rocksdb_close(db)
    print("  ctypes: configure_vlsm, open, 5000 puts, gets: ok")

    lib.rocksdb_options_set_level_compaction_dynamic_level_bytes(opt, 1)
    lib.rocksdb_options_check_vlsm(opt, ctypes.byref(err))
    message = take_error(lib, err)
    assert message and "level_compaction_dynamic_level_bytes" in message, message
    print(f"  ctypes: the conflicting option is refused: {message}")
    lib.rocksdb_options_destroy(opt)

    err = ctypes.c_char_p()  # the message above is freed
    ranged = lib.rocksdb_options_create()
    lib.rocksdb_options_configure_vlsm_ranged(ranged, ctypes.byref(err))
    assert not err, take_error(lib, err)
    pri = lib.rocksdb_options_get_compaction_pri(ranged)
    assert pri == ROCKSDB_K_VLSM_RANGED_COMPACTION_PRI, pri
    lib.rocksdb_options_check_vlsm(ranged, ctypes.byref(err))
    assert not err, take_error(lib, err)
    lib.rocksdb_options_destroy(ranged)
    print("  ctypes: configure_vlsm_ranged sets the ranged layout: ok")
    print("python_ctypes: all checks passed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
