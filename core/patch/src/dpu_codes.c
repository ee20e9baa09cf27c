/* SPDX-License-Identifier: MIT */
/* Bit reader, Golomb-Rice, canonical Huffman, fp16 and arithmetic decoding (docs/bundle-format.md). */
#include "dpu_codes.h"

#include <string.h>

void dpu_bits_init(dpu_bits *b, dpu_read_fn read, void *user, uint64_t start, uint64_t length)
{
    b->read = read;
    b->user = user;
    b->next = start;
    b->end = start + length; /* the caller checked start + length for overflow */
    b->have = 0;
    b->pos = 0;
    b->bit = 0;
    b->error = 0;
}

/* Makes buf[pos] valid; 0 on success. */
static int refill(dpu_bits *b)
{
    uint64_t left;
    uint32_t n;
    if (b->error)
        return -1;
    if (b->pos < b->have)
        return 0;
    left = b->end - b->next;
    if (left == 0) {
        b->error = 1;
        return -1;
    }
    n = left < DPU_BITS_BUFFER ? (uint32_t)left : DPU_BITS_BUFFER;
    if (b->read(b->user, b->next, b->buf, n) != 0) {
        b->error = 2;
        return -1;
    }
    b->next += n;
    b->have = n;
    b->pos = 0;
    return 0;
}

static unsigned get1(dpu_bits *b)
{
    unsigned v;
    if (refill(b) != 0)
        return 0;
    v = (unsigned)(b->buf[b->pos] >> (7u - b->bit)) & 1u;
    if (++b->bit == 8) {
        b->bit = 0;
        ++b->pos;
    }
    return v;
}

uint32_t dpu_bits_get(dpu_bits *b, unsigned n)
{
    uint32_t v = 0;
    while (n > 0) {
        unsigned take, avail;
        if (refill(b) != 0)
            return 0;
        /* take as many bits as the current byte offers, at most n */
        avail = 8u - b->bit;
        take = n < avail ? n : avail;
        v = (v << take) | ((uint32_t)(b->buf[b->pos] >> (avail - take)) & ((1u << take) - 1u));
        b->bit += take;
        if (b->bit == 8) {
            b->bit = 0;
            ++b->pos;
        }
        n -= take;
    }
    return v;
}

int dpu_bits_at_clean_end(dpu_bits *b)
{
    if (b->error)
        return 0;
    if (b->bit != 0) {
        if ((b->buf[b->pos] & ((1u << (8u - b->bit)) - 1u)) != 0)
            return 0; /* non-zero padding */
        ++b->pos;
        b->bit = 0;
    }
    return b->pos == b->have && b->next == b->end;
}

uint64_t dpu_rice_get(dpu_bits *b, unsigned k, uint64_t limit, int *ok)
{
    uint64_t q = 0, v;
    const uint64_t qmax = limit >> k;
    *ok = 0;
    for (;;) {
        const unsigned bit = get1(b);
        if (b->error)
            return 0;
        if (bit == 0)
            break;
        if (++q > qmax)
            return 0; /* the value would exceed the limit whatever the remainder */
    }
    v = (q << k) | (k > 0 ? dpu_bits_get(b, k) : 0u);
    if (b->error || v > limit)
        return 0;
    *ok = 1;
    return v;
}

dpu_status dpu_huff_build(dpu_huff *h, const uint8_t lengths[256])
{
    uint16_t offs[DPU_HUFF_MAX_BITS + 2];
    int32_t left = 1; /* unassigned code space at the current length, in units of 2^-len */
    unsigned i, len;
    memset(h->count, 0, sizeof h->count);
    h->used = 0;
    for (i = 0; i < 256; ++i) {
        if (lengths[i] > DPU_HUFF_MAX_BITS)
            return DPU_E_HUFF_TABLE;
        h->count[lengths[i]]++;
    }
    h->count[0] = 0;
    for (len = 1; len <= DPU_HUFF_MAX_BITS; ++len) {
        left = left * 2 - (int32_t)h->count[len];
        if (left < 0)
            return DPU_E_HUFF_TABLE; /* over-subscribed */
        h->used = (uint16_t)(h->used + h->count[len]);
    }
    if (h->used == 0)
        return DPU_E_HUFF_TABLE;
    if (h->used == 1) {
        if (h->count[1] != 1)
            return DPU_E_HUFF_TABLE; /* a lone symbol is coded with the single bit 0 */
    } else if (left != 0) {
        return DPU_E_HUFF_TABLE; /* incomplete code: some bit strings would decode to nothing */
    }
    offs[1] = 0;
    for (len = 1; len <= DPU_HUFF_MAX_BITS; ++len)
        offs[len + 1] = (uint16_t)(offs[len] + h->count[len]);
    for (i = 0; i < 256; ++i)
        if (lengths[i] != 0)
            h->symbol[offs[lengths[i]]++] = (uint8_t)i;
    return DPU_OK;
}

dpu_status dpu_huff_read_lengths(dpu_bits *b, uint8_t lengths[256])
{
    unsigned i;
    for (i = 0; i < 128; ++i) {
        const unsigned byte = dpu_bits_get(b, 8);
        lengths[2 * i] = (uint8_t)(byte & 15u);
        lengths[2 * i + 1] = (uint8_t)(byte >> 4);
    }
    return b->error ? DPU_E_HUFF_TABLE : DPU_OK;
}

int dpu_huff_get(const dpu_huff *h, dpu_bits *b)
{
    /* Canonical decoding one bit at a time: `first` is the first code of this length,
     * `index` the position of its symbol in h->symbol. */
    int32_t code = 0, first = 0, index = 0;
    unsigned len;
    for (len = 1; len <= DPU_HUFF_MAX_BITS; ++len) {
        const int32_t count = (int32_t)h->count[len];
        code |= (int32_t)get1(b);
        if (b->error)
            return -1;
        if (code - first < count)
            return h->symbol[index + (code - first)];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1; /* only reachable for the lone-symbol code's unused bit 1 */
}

uint32_t dpu_arith_p1(const dpu_arith_model *m)
{
    /* Krichevsky-Trofimov estimate: (n1 + 1/2) / (n + 1), with n < 2^14 so that it never
     * reaches 0 or 1 and the numerator fits 32 bits */
    const uint32_t n = (uint32_t)m->n0 + m->n1;
    return (((uint32_t)m->n1 * 2u + 1u) << 16) / (n * 2u + 2u);
}

void dpu_arith_update(dpu_arith_model *m, unsigned bit, unsigned limit)
{
    if (bit)
        ++m->n1;
    else
        ++m->n0;
    if ((uint32_t)m->n0 + m->n1 >= (1u << limit)) {
        m->n0 = (uint16_t)((m->n0 + 1u) >> 1);
        m->n1 = (uint16_t)((m->n1 + 1u) >> 1);
    }
}

dpu_status dpu_arith_start(dpu_arith *a, dpu_bits *b)
{
    a->range = 0xffffffffu;
    a->code = dpu_bits_get(b, 16) << 16;
    a->code |= dpu_bits_get(b, 16);
    return b->error || a->code >= a->range ? DPU_E_ARITH : DPU_OK;
}

unsigned dpu_arith_get(dpu_arith *a, dpu_bits *b, dpu_arith_model *m, unsigned limit)
{
    /* 1 takes the lower part of the interval. code < range holds throughout (start checks it,
     * both branches and the renormalisation keep it), so hostile bytes only yield other bits. */
    const uint32_t bound = (a->range >> 16) * dpu_arith_p1(m);
    unsigned bit;
    if (a->code < bound) {
        a->range = bound;
        bit = 1;
    } else {
        a->code -= bound;
        a->range -= bound;
        bit = 0;
    }
    while (a->range < (1u << 24)) {
        a->range <<= 8;
        a->code = (a->code << 8) | dpu_bits_get(b, 8);
    }
    dpu_arith_update(m, bit, limit);
    return bit;
}

float dpu_half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f)
        return dpu_bits_float(sign | 0x7f800000u | (man << 13)); /* inf / NaN */
    if (exp == 0) {
        if (man == 0)
            return dpu_bits_float(sign);
        /* subnormal half: normalise into a float */
        exp = 127 - 15 + 1;
        while ((man & 0x400u) == 0) {
            man <<= 1;
            --exp;
        }
        man &= 0x3ffu;
        return dpu_bits_float(sign | (exp << 23) | (man << 13));
    }
    return dpu_bits_float(sign | ((exp + 127u - 15u) << 23) | (man << 13));
}

uint16_t dpu_le16(const uint8_t *p) { return (uint16_t)(p[0] | (unsigned)p[1] << 8); }
uint32_t dpu_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
uint64_t dpu_le64(const uint8_t *p) { return (uint64_t)dpu_le32(p) | (uint64_t)dpu_le32(p + 4) << 32; }
void dpu_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
uint32_t dpu_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
float dpu_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
