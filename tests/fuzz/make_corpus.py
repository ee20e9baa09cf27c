#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seed corpora of the fuzz targets in tests/fuzz into tests/data/fuzz/<target>/:
# small valid files of each format (raw and gzip) so that libFuzzer starts past the headers.
import gzip
import json
import os
import random
import struct
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "fuzz")


def put(target, name, data):
    folder = os.path.join(root, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def gz(data):
    return gzip.compress(data, mtime=0)  # mtime 0: the same bytes on every run


def idx(magic, dims, body):
    return struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in dims) + body


def safetensors(tensors, metadata):
    header, offset, data = {}, 0, b""
    if metadata:
        header["__metadata__"] = metadata
    for name, shape, values, *dtype in tensors:
        # F32 by default; "I8": int8 codes, one byte each (bundle format 5's INT8 models)
        i8 = dtype == ["I8"]
        raw = struct.pack("<%d%s" % (len(values), "b" if i8 else "f"), *values)
        header[name] = {"dtype": "I8" if i8 else "F32", "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - (8 + len(text)) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def main():
    # IDX: byte 0 selects images (even) or labels (odd), as fuzz_idx.cpp reads it.
    images = idx(0x803, [2, 3, 4], bytes(range(24)))
    labels = idx(0x801, [2], bytes([3, 9]))
    put("idx", "images.raw", b"\x00" + images)
    put("idx", "images.gz", b"\x00" + gz(images))
    put("idx", "labels.raw", b"\x01" + labels)
    put("idx", "labels.gz", b"\x01" + gz(labels))
    # CIFAR: byte 0 selects CIFAR-10 (even) or CIFAR-100 (odd).
    c10 = b"".join(bytes([label]) + bytes((i * 7 + label) & 0xFF for i in range(3072)) for label in (0, 9))
    c100 = bytes([19, 99]) + bytes(i & 0xFF for i in range(3072))
    put("cifar", "cifar10.raw", b"\x00" + c10)
    put("cifar", "cifar10.gz", b"\x00" + gz(c10))
    put("cifar", "cifar100.raw", b"\x01" + c100)
    # safetensors: a device-like file with the metadata the bundle writer puts in, and a bare one.
    put("safetensors", "device.safetensors",
        safetensors([("fc.weight", [2, 3], [0.5, -1.0, 2.0, 0.0, 3.25, -0.125]), ("fc.bias", [2], [1.0, -1.0])],
                    {"dpu.compat": "c", "dpu.model": "mlp", "dpu.update_version": "7", "format": "pt"}))
    put("safetensors", "bare.safetensors", safetensors([("x", [1], [42.0])], None))
    put("safetensors", "empty-tensor.safetensors", safetensors([("e", [0], [])], None))
    put("safetensors", "int8.safetensors",
        safetensors([("fc.weight", [2, 3], [-128, -1, 0, 1, 5, 127], "I8"), ("fc.weight.scale", [2], [0.5, 0.25]),
                     ("fc.bias", [2], [1.0, -1.0])],
                    {"dpu.compat": "c", "dpu.model": "mlp-int8", "dpu.update_version": "3", "format": "pt"}))
    # round trip: fuzz_roundtrip.cpp takes its choices from the input's end (FuzzedDataProvider):
    # a 4-byte seed, then the kind (byte % 3), the coding (byte % 6) and the q8c dense flag; the
    # bytes before them shape the tensors. One seed per kind and coding.
    rng = random.Random(13)
    for kind, kind_name in enumerate(("full", "delta", "reinit")):
        for coding, coding_name in enumerate(("fp32", "fp16", "q8", "q8c", "q4", "ternary")):
            filler = bytes(rng.randrange(256) for _ in range(rng.randrange(64, 400)))
            tail = bytes([kind * 7 % 2, coding, kind]) + struct.pack("<I", rng.randrange(1 << 32))
            put("roundtrip", "%s-%s" % (kind_name, coding_name), filler + tail)
    fleet()
    return 0


def fleet():
    """fuzz_fleet.cpp reads key=value lines (the fleet's and the link's settings, numbers as
    text), then after a line '---' a trace (CSV, or FedScale JSON when it starts with '{'). One
    seed per link family and policy, the hostile inputs of issue 45, and traces of both kinds."""
    seeds = {
        "eu868-mix": "link=lorawan-eu868\nsf_mix=fuotasim\ndevices=200\nloss=0.1\navailability=0.8\ndrain=3\n"
                     "catch_up=multicast\nmax_staleness=2\nrepairs=1\nversions=5\n",
        "eu868-per-sf": "link=lorawan-eu868\nsf_mix=7:45,8:22,12:6\nper_sf=1\nduty=0.1\ndevices=50\nevery_device=1\n"
                        "target=0.9\norder=smallest\n",
        "us915": "link=lorawan-us915\nsf=10\ndelivery=unicast\ndevices=30\nloss=0.2\nrepairs=3\nlast_round=6\n",
        "nb-iot-upload": "link=nb-iot-nb1\ndevices=20\nloss=0.05\nsample_bytes=784\nnew_samples=100\nuplink=1\n"
                         "delta=30000\nfull=678050\n",
        "ble-cpu": "link=ble-smp-pipelined\ndevices=10\ncpu=m4\nclock_mhz=64\nrun_ma=3\ncpi=1.5\ndevice_file=2679416\n"
                   "coding=3\nperiod=3600\n",
        "lte-m": "link=lte-m\ndevices=15\navailability=0.5\nversions=8\nround_step=2\nmax_staleness=3\n",
        "link-fields": "link=lorawan-eu868\nsf=12\npayload=51\noverhead=13\nheader=3\nfragment=20\nmax_fragments=100\n"
                       "repetitions=2\nlatency=0.01\nrecovery=erasure\nlistening=ping\nbytes=5000\n",
        "sf-mix-overflow": "link=lorawan-eu868\nsf_mix=7:1e308,8:1e308\ndevices=200\n",
        "limits": "devices=1000001\ndevices2=1\ndrain=1001\nperiod=nan\nmax_staleness=-1\nrepairs=101\nseed=-1\n"
                  "sample_bytes=1e300\nlast_round=10001\n",
        "overflow-link": "link=custom\npayload=2147483647\noverhead=2147483647\nbits_per_second=1e-300\nloss=0.999999\n",
        "trace-csv": "devices=5\n---\ndevice,round\nA,1\nA,3\n# comment\n\n B , 2\r\nA,1\n",
        "trace-fedscale": "---\n{\"7\": {\"duration\": 300, \"inactive\": [50, 150], \"finish_time\": 200, "
                          "\"active\": [0, 100], \"model\": \"x\"},\n \"3\": {\"active\": [10], \"inactive\": [20], "
                          "\"finish_time\": 100}}\n",
        "trace-fedscale-overflow": "---\n{\"a\": {\"active\": [0], \"inactive\": [1e999], \"finish_time\": 20}}\n",
        "trace-csv-bad": "---\ndevice,round\nn1,1\nn1,two\n",
    }
    for name, text in seeds.items():
        put("fleet", name + ".txt", text.encode())


if __name__ == "__main__":
    sys.exit(main())
