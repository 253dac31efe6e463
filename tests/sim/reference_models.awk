# Slow, obviously-correct models to cross-check pagesim on small strings.
# Usage: awk -v policy=lru|fifo|clock|opt -v size=N -f reference_models.awk FILE
# Prints the miss count.  O(n * size): keep the inputs small.
{ ref[n++] = $1 }
END {
	if (policy == "opt") {
		# next[i]: position of the next reference to ref[i] (n = never).
		for (i = n - 1; i >= 0; i--) {
			next_use[i] = (ref[i] in seen) ? seen[ref[i]] : n
			seen[ref[i]] = i
		}
	}
	misses = 0; used = 0; hand = 0
	for (i = 0; i < n; i++) {
		p = ref[i]
		if (p in resident) {
			if (policy == "lru") stamp[p] = i
			if (policy == "clock") refbit[p] = 1
			if (policy == "opt") stamp[p] = next_use[i]
			continue
		}
		misses++
		if (used < size) {
			frame[used++] = p
		} else if (policy == "clock") {
			while (refbit[frame[hand]]) { refbit[frame[hand]] = 0; hand = (hand + 1) % size }
			delete resident[frame[hand]]
			frame[hand] = p
			hand = (hand + 1) % size
		} else {
			# Victim: smallest stamp (LRU, FIFO) or largest next use (OPT).
			best = 0
			for (f = 1; f < size; f++) {
				if (policy == "opt" ? stamp[frame[f]] > stamp[frame[best]] : stamp[frame[f]] < stamp[frame[best]])
					best = f
			}
			delete resident[frame[best]]
			frame[best] = p
		}
		resident[p] = 1
		refbit[p] = 0
		stamp[p] = (policy == "opt") ? next_use[i] : i
	}
	print misses
}
