#!/usr/bin/python3
"""refrandom.py: a second implementation of the lab's PRNG and of what the
simulator draws from it, for checking that pagesim's random model and
refgen use workloads/lib/prng.h and nothing else.  Written from the
algorithms, not from the C: xoshiro256** (Blackman and Vigna, "Scrambled
linear pseudorandom number generators", 2018, the reference xoshiro256ss.c),
its four state words from the splitmix64 finaliser of seed + (i + 2) * the
golden-ratio increment (prng.h's mix64 adds one increment itself), integers
below n by rejection of the top 2^64 mod n values, reals with 53 bits.

Usage: refrandom.py selfcheck                  the published vectors (below)
       refrandom.py uniform PAGES REFS SEED   refgen --dist uniform --format text
       refrandom.py random SIZE SEED FILE     the random model's misses on a
                                              LIRS text string (one id a line)
Exit 1 when selfcheck fails, 2 on bad arguments."""
import sys

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def finalise(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


class Xoshiro256ss:
    def __init__(self, seed):
        self.s = [finalise((seed + (i + 2) * GOLDEN) & MASK) for i in range(4)]

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n):
        # Accept x < 2^64 - 1 - ((2^64 - 1) mod n): a whole number of
        # copies of [0, n).
        limit = MASK - MASK % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


# Published: xoshiro256** from the state {1, 2, 3, 4} (the reference C's
# output, as rand_xoshiro's tests quote it), and splitmix64's first output
# from the state 0.
PUBLISHED_1234 = [11520, 0, 1509978240, 1215971899390074240]
SPLITMIX_FIRST_FROM_0 = 0xE220A8397B1DCDAF


def selfcheck():
    g = Xoshiro256ss(0)
    g.s = [1, 2, 3, 4]
    got = [g.next() for _ in PUBLISHED_1234]
    if got != PUBLISHED_1234 or finalise(GOLDEN) != SPLITMIX_FIRST_FROM_0:
        print(f"refrandom.py: selfcheck failed: {got} {finalise(GOLDEN):#x}", file=sys.stderr)
        return 1
    print("ok")
    return 0


def uniform(pages, refs, seed):
    g = Xoshiro256ss(seed)
    for _ in range(refs):
        print(g.below(pages))


def random_model(size, seed, path):
    """Uniform victim among the resident pages: frames fill in order, then a
    miss replaces frame below(size)."""
    g = Xoshiro256ss(seed)
    frames, where, misses = [], {}, 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            page = int(line)
            if page in where:
                continue
            misses += 1
            if len(frames) < size:
                where[page] = len(frames)
                frames.append(page)
            else:
                victim = g.below(size)
                del where[frames[victim]]
                frames[victim] = page
                where[page] = victim
    print(misses)


def main(argv):
    try:
        if len(argv) == 2 and argv[1] == "selfcheck":
            return selfcheck()
        if len(argv) == 5 and argv[1] == "uniform":
            uniform(int(argv[2]), int(argv[3]), int(argv[4]))
        elif len(argv) == 5 and argv[1] == "random":
            random_model(int(argv[2]), int(argv[3]), argv[4])
        else:
            raise ValueError("usage: refrandom.py selfcheck | uniform PAGES REFS SEED | random SIZE SEED FILE")
    except (ValueError, OSError) as e:
        print(f"refrandom.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
