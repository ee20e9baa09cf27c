#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Writes one tiny, learnable data set in every form the engine reads (IDX as the reference, NumPy
# .npy in each dtype, .npz stored and deflated, safetensors, PNG and JPEG folders) into this
# folder, and the seed corpora of the array and image fuzz targets into ../fuzz/. Needs numpy and
# PIL (Debian: python3-numpy python3-pil). Deterministic: running it again gives the same bytes.
import json
import os
import shutil
import struct
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, "..", "fuzz")
TRAIN, TEST, SIDE, CLASSES = 40, 16, 6, 4


def sample(index, label):
    """6x6 pixels in 0..127 (so int8 and float16 hold them exactly): noise plus a bright row per label."""
    state = (index * 2654435761 + 12345) & 0xFFFFFFFF
    px = np.zeros((SIDE, SIDE), dtype=np.uint8)
    for k in range(SIDE * SIDE):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        px[k // SIDE, k % SIDE] = (state >> 16) % 48
    px[label + 1, :] = 100 + label * 9
    return px


def split(count, offset):
    labels = np.array([i % CLASSES for i in range(count)], dtype=np.uint8)
    images = np.stack([sample(offset + i, int(labels[i])) for i in range(count)])
    return images, labels


def path(*parts):
    p = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def write(p, data):
    with open(path(p) if not os.path.isabs(p) else p, "wb") as f:
        f.write(data)


def idx(magic, array):
    return struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape) + array.tobytes()


def npy_bytes(array):
    import io
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def safetensors(tensors):
    """tensors: list of (name, dtype tag, raw bytes, shape)."""
    header, offset, data = {}, 0, b""
    for name, tag, raw, shape in tensors:
        header[name] = {"dtype": tag, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - (8 + len(text)) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def fixed_zip_times(folder):
    """savez stamps members with the current time: rewrite it so the bytes do not change per run."""
    import zipfile
    for name in os.listdir(folder):
        if not name.endswith(".npz"):
            continue
        p = os.path.join(folder, name)
        with zipfile.ZipFile(p) as z:
            members = [(i, z.read(i.filename)) for i in z.infolist()]
        with zipfile.ZipFile(p, "w") as z:
            for info, data in members:
                fixed = zipfile.ZipInfo(info.filename, date_time=(2024, 1, 1, 0, 0, 0))
                fixed.compress_type = info.compress_type
                z.writestr(fixed, data)


def main():
    for sub in ("idx", "npy", "npz", "safetensors", "images", "images-jpeg", "images-mixed"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
    x, y = split(TRAIN, 0)
    xt, yt = split(TEST, 1000)

    # The reference: MNIST-format IDX (raw files).
    write("idx/train-images-idx3-ubyte", idx(0x803, x))
    write("idx/train-labels-idx1-ubyte", idx(0x801, y))
    write("idx/t10k-images-idx3-ubyte", idx(0x803, xt))
    write("idx/t10k-labels-idx1-ubyte", idx(0x801, yt))

    # .npy: the default names (uint8, N,H,W), every dtype of x and of y, the 4-D layouts,
    # big-endian data, and the malformed cases the tests expect errors for.
    for name, a in (("x", x), ("y", y), ("x_test", xt), ("y_test", yt)):
        write("npy/%s.npy" % name, npy_bytes(a))
    for tag, dt in (("u8", "u1"), ("i8", "i1"), ("i16", "<i2"), ("i32", "<i4"), ("i64", "<i8"),
                    ("f16", "<f2"), ("f32", "<f4"), ("f64", "<f8"), ("i16be", ">i2")):
        write("npy/x_%s.npy" % tag, npy_bytes(x.astype(dt)))
        write("npy/x_test_%s.npy" % tag, npy_bytes(xt.astype(dt)))
    for tag, dt in (("i8", "i1"), ("i16", "<i2"), ("i32", "<i4"), ("i64", "<i8")):
        write("npy/y_%s.npy" % tag, npy_bytes(y.astype(dt)))
        write("npy/y_test_%s.npy" % tag, npy_bytes(yt.astype(dt)))
    write("npy/x_nhwc.npy", npy_bytes(x.reshape(TRAIN, SIDE, SIDE, 1)))
    write("npy/x_test_nhwc.npy", npy_bytes(xt.reshape(TEST, SIDE, SIDE, 1)))
    write("npy/x_nchw.npy", npy_bytes(x.reshape(TRAIN, 1, SIDE, SIDE)))
    write("npy/x_test_nchw.npy", npy_bytes(xt.reshape(TEST, 1, SIDE, SIDE)))
    write("npy/x_fortran.npy", npy_bytes(np.asfortranarray(x.astype("<f4"))))
    write("npy/y_float.npy", npy_bytes(y.astype("<f4")))
    write("npy/y_short.npy", npy_bytes(y[:-1]))
    write("npy/y_negative.npy", npy_bytes(np.where(np.arange(TRAIN) == 5, -1, y).astype("<i8")))
    write("npy/y_gap.npy", npy_bytes((y * 2).astype("u1")))  # classes 1, 3, 5 have no samples
    write("npy/x_bool.npy", npy_bytes(x > 50))
    write("npy/x_u16.npy", npy_bytes(x.astype("<u2")))
    # Sensor windows N,C,L (2 channels of 18 steps: the image's rows side by side) and tabular N,F.
    write("npy/x_windows.npy", npy_bytes(x.reshape(TRAIN, 2, 18).astype("<f4")))
    write("npy/x_test_windows.npy", npy_bytes(xt.reshape(TEST, 2, 18).astype("<f4")))
    write("npy/x_table.npy", npy_bytes(x.reshape(TRAIN, 36).astype("<f8")))
    write("npy/x_test_table.npy", npy_bytes(xt.reshape(TEST, 36).astype("<f8")))

    # .npz: stored (savez) with Keras-style names, deflated (savez_compressed), and one without a
    # test split (held out).
    np.savez(path("npz/data.npz"), x_train=x, y_train=y, x_test=xt, y_test=yt)
    np.savez_compressed(path("npz/compressed.npz"), x=x.astype("<f4"), y=y.astype("<i8"), x_test=xt.astype("<f4"),
                        y_test=yt.astype("<i8"))
    np.savez_compressed(path("npz/holdout.npz"), x=np.concatenate([x, xt]), y=np.concatenate([y, yt]))
    fixed_zip_times(os.path.join(HERE, "npz"))

    # safetensors: x and y in several dtypes (bf16 as float32's upper half, exact for these integers).
    def bf16(a):
        return (a.astype("<f4").view("<u4") >> 16).astype("<u2").tobytes()
    st = [("x", "U8", x.tobytes(), x.shape), ("y", "U8", y.tobytes(), y.shape),
          ("x_test", "U8", xt.tobytes(), xt.shape), ("y_test", "U8", yt.tobytes(), yt.shape),
          ("x_f16", "F16", x.astype("<f2").tobytes(), x.shape), ("x_test_f16", "F16", xt.astype("<f2").tobytes(), xt.shape),
          ("x_bf16", "BF16", bf16(x), x.shape), ("x_test_bf16", "BF16", bf16(xt), xt.shape),
          ("x_f64", "F64", x.astype("<f8").tobytes(), x.shape), ("x_test_f64", "F64", xt.astype("<f8").tobytes(), xt.shape),
          ("y_i64", "I64", y.astype("<i8").tobytes(), y.shape), ("y_test_i64", "I64", yt.astype("<i8").tobytes(), yt.shape),
          ("y_i32", "I32", y.astype("<i4").tobytes(), y.shape), ("y_test_i32", "I32", yt.astype("<i4").tobytes(), yt.shape),
          ("x_bool", "BOOL", (x > 50).tobytes(), x.shape)]
    write("safetensors/data.safetensors", safetensors(st))

    # Image folders: gray PNGs with test/ (identical to the IDX pixels; class folders a..d are
    # labels 0..3), RGB JPEGs held out, and PNGs of two sizes (resized with dataset.image_size).
    names = "abcd"
    for i in range(TRAIN):
        Image.fromarray(x[i], "L").save(path("images/%s/%03d.png" % (names[y[i]], i)))
    for i in range(TEST):
        Image.fromarray(xt[i], "L").save(path("images/test/%s/%03d.png" % (names[yt[i]], i)))
    for i in range(TRAIN):
        rgb = np.stack([x[i], x[i] // 2, 127 - x[i]], axis=-1).repeat(2, 0).repeat(2, 1)
        Image.fromarray(rgb.astype(np.uint8), "RGB").save(path("images-jpeg/%s/%03d.jpg" % (names[y[i]], i)), quality=95)
    for i in range(8):
        side = SIDE if i % 2 == 0 else SIDE * 2
        img = np.kron(x[i], np.ones((side // SIDE, side // SIDE), dtype=np.uint8))
        Image.fromarray(img, "L").save(path("images-mixed/%s/%03d.png" % (names[y[i]], i)))

    # Seed corpora of tests/fuzz: fuzz_npy, fuzz_npz, fuzz_data_safetensors, fuzz_image.
    for sub in ("npy", "npz", "data_safetensors", "image"):
        shutil.rmtree(os.path.join(FUZZ, sub), ignore_errors=True)
        os.makedirs(os.path.join(FUZZ, sub))
    small = x[:2, :3, :3]
    for tag, dt in (("u8", "u1"), ("f16", "<f2"), ("f32", "<f4"), ("i64", "<i8"), ("be", ">i2")):
        write(os.path.join(FUZZ, "npy", tag + ".npy"), npy_bytes(small.astype(dt)))
    import io
    import zipfile
    for tag, method in (("stored", zipfile.ZIP_STORED), ("deflated", zipfile.ZIP_DEFLATED)):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, a in (("x.npy", small), ("y.npy", y[:2])):
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = method
                z.writestr(info, npy_bytes(a))
        write(os.path.join(FUZZ, "npz", tag + ".npz"), buf.getvalue())
    write(os.path.join(FUZZ, "data_safetensors", "xy.safetensors"),
          safetensors([("x", "U8", small.tobytes(), small.shape), ("y", "I64", y[:2].astype("<i8").tobytes(), (2,)),
                       ("h", "F16", small.astype("<f2").tobytes(), small.shape)]))
    # fuzz_image: byte 0 picks the channels (0 native, 1 gray, 2 RGB), the image follows.
    for fmt, mode, ext, pick in (("PNG", "L", "png", 0), ("PNG", "RGB", "rgb.png", 1), ("PNG", "LA", "alpha.png", 2),
                                 ("JPEG", "RGB", "jpg", 0), ("JPEG", "L", "gray.jpg", 2)):
        pixels = {"L": x[0], "RGB": np.stack([x[0]] * 3, -1), "LA": np.stack([x[0], 255 - x[0]], -1)}[mode]
        buf = io.BytesIO()
        Image.fromarray(pixels, mode).save(buf, fmt)
        write(os.path.join(FUZZ, "image", "small." + ext), bytes([pick]) + buf.getvalue())
    # The input with which fuzz_image found an out-of-bounds write in stb_image's JPEG Huffman
    # tables (Debian's 2022-09 stb), why the engine decodes with libpng and TurboJPEG instead.
    import base64
    write(os.path.join(FUZZ, "image", "stb-jpeg-huffman-overflow"), base64.b64decode("if/Y/+AAA9j/xAFiABsA11X5GweC"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
