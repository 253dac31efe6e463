#!/usr/bin/perl
# refsim.pl: a second, independent page-replacement simulator, written from
# the papers for checking pagesim (analysis/sim).  It shares no code with
# pagesim and uses other data structures: every ordered list is a set of
# pages stamped with a global counter, whose oldest member comes from a
# heap with lazy deletion; CLOCK is an array of frames; SIEVE an array
# with tombstones; OPT a max-heap of next uses.
#
# Usage: refsim.pl MODEL SIZE[,SIZE...] FILE
#   MODEL: opt lru fifo clock car lirs arc 2q s3fifo sieve
#   FILE: one block number per line (LIRS text format)
# Prints "SIZE MISSES" per size.  Exit 2 on bad arguments.
use strict;
use warnings;

my %models = (
	opt => \&opt, lru => \&lru, fifo => \&fifo, clock => \&clock, car => \&car,
	lirs => \&lirs, arc => \&arc, '2q' => \&twoq, s3fifo => \&s3fifo, sieve => \&sieve,
);

sub usage { print STDERR "refsim.pl: $_[0]\n"; exit 2 }
usage("usage: refsim.pl MODEL SIZE[,SIZE...] FILE") unless @ARGV == 3;
my ($model, $sizes, $file) = @ARGV;
usage("unknown model '$model'") unless $models{$model};
my @sizes = split /,/, $sizes;
for (@sizes) { usage("bad size '$_'") unless /^[1-9][0-9]*$/ }
open my $fh, '<', $file or usage("$file: $!");
my @refs;
while (<$fh>) {
	next unless /(\d+)/;
	push @refs, $1;
}
close $fh;
printf "%d %d\n", $_, $models{$model}->($_) for @sizes;

# ---- min-heap of [key, page], and ordered sets built on it ----
sub heap_push {
	my ($h, $key, $page) = @_;
	push @$h, [ $key, $page ];
	my $i = $#$h;
	while ($i > 0) {
		my $up = int(($i - 1) / 2);
		last if $h->[$up][0] <= $h->[$i][0];
		@$h[ $up, $i ] = @$h[ $i, $up ];
		$i = $up;
	}
}

sub heap_pop {
	my ($h) = @_;
	my $top = $h->[0];
	my $last = pop @$h;
	if (@$h) {
		$h->[0] = $last;
		my $i = 0;
		for (;;) {
			my ($l, $r, $m) = (2 * $i + 1, 2 * $i + 2, $i);
			$m = $l if $l < @$h && $h->[$l][0] < $h->[$m][0];
			$m = $r if $r < @$h && $h->[$r][0] < $h->[$m][0];
			last if $m == $i;
			@$h[ $m, $i ] = @$h[ $i, $m ];
			$i = $m;
		}
	}
	return $top;
}

my $clock_tick = 0;    # global stamp counter shared by every set

# A set: { stamp => {page => stamp}, heap => [...] }.  Newest = largest stamp.
sub set_new { return { stamp => {}, heap => [] } }
sub set_has { return exists $_[0]{stamp}{ $_[1] } }
sub set_size { return scalar keys %{ $_[0]{stamp} } }

sub set_add {    # add at the newest end, or move there
	my ($s, $page) = @_;
	$s->{stamp}{$page} = ++$clock_tick;
	heap_push($s->{heap}, $clock_tick, $page);
}
sub set_del { delete $_[0]{stamp}{ $_[1] } }

sub set_oldest {
	my ($s) = @_;
	for (;;) {
		my $top = $s->{heap}[0];
		return undef unless $top;
		my $st = $s->{stamp}{ $top->[1] };
		return $top->[1] if defined $st && $st == $top->[0];
		heap_pop($s->{heap});
	}
}

sub set_pop_oldest {
	my ($s) = @_;
	my $page = set_oldest($s);
	set_del($s, $page);
	return $page;
}

# ---- OPT: evict the resident page used furthest in the future ----
sub opt {
	my ($size) = @_;
	my (@next, %later);
	for (my $i = $#refs; $i >= 0; $i--) {
		$next[$i] = exists $later{ $refs[$i] } ? $later{ $refs[$i] } : @refs + $i;
		$later{ $refs[$i] } = $i;
	}
	my (%res, @heap);    # heap keyed by -next use, lazy
	my $misses = 0;
	for my $i (0 .. $#refs) {
		my $p = $refs[$i];
		unless (exists $res{$p}) {
			$misses++;
			if (keys %res >= $size) {
				for (;;) {
					my $top = heap_pop(\@heap);
					my ($key, $v) = @$top;
					next unless exists $res{$v} && $res{$v} == -$key;
					delete $res{$v};
					last;
				}
			}
		}
		$res{$p} = $next[$i];
		heap_push(\@heap, -$next[$i], $p);
	}
	return $misses;
}

# LRU and FIFO: one queue whose oldest page is evicted; a hit moves the
# page to the newest end under LRU and leaves it in place under FIFO.
sub queue {
	my ($size, $hit_moves) = @_;
	my $s = set_new();
	my $misses = 0;
	for my $p (@refs) {
		if (set_has($s, $p)) {
			set_add($s, $p) if $hit_moves;
			next;
		}
		$misses++;
		set_pop_oldest($s) if set_size($s) >= $size;
		set_add($s, $p);
	}
	return $misses;
}

sub lru { return queue($_[0], 1) }
sub fifo { return queue($_[0], 0) }

# CLOCK: frames in a ring, one bit each, a loaded page starts unreferenced.
sub clock {
	my ($size) = @_;
	my (@frame, %slot, %bit);
	my ($hand, $misses) = (0, 0);
	for my $p (@refs) {
		if (exists $slot{$p}) { $bit{$p} = 1; next }
		$misses++;
		if (@frame < $size) {
			$slot{$p} = @frame;
			push @frame, $p;
		} else {
			while ($bit{ $frame[$hand] }) {
				$bit{ $frame[$hand] } = 0;
				$hand = ($hand + 1) % $size;
			}
			delete $slot{ $frame[$hand] };
			$frame[$hand] = $p;
			$slot{$p} = $hand;
			$hand = ($hand + 1) % $size;
		}
		$bit{$p} = 0;
	}
	return $misses;
}

# CAR (Bansal & Modha, FAST 2004, Fig. 2), p real.
sub car {
	my ($c) = @_;
	my ($t1, $t2, $b1, $b2) = map { set_new() } 1 .. 4;
	my %ref;
	my ($p, $misses) = (0, 0);
	for my $x (@refs) {
		if (set_has($t1, $x) || set_has($t2, $x)) { $ref{$x} = 1; next }
		$misses++;
		my $in_b = set_has($b1, $x) || set_has($b2, $x);
		if (set_size($t1) + set_size($t2) == $c) {
			for (;;) {    # replace()
				if (set_size($t1) >= ($p > 1 ? $p : 1)) {
					my $h = set_pop_oldest($t1);
					if (!$ref{$h}) { set_add($b1, $h); last }
					$ref{$h} = 0;
					set_add($t2, $h);
				} else {
					my $h = set_pop_oldest($t2);
					if (!$ref{$h}) { set_add($b2, $h); last }
					$ref{$h} = 0;
					set_add($t2, $h);
				}
			}
			if (!$in_b && set_size($t1) + set_size($b1) == $c) {
				set_pop_oldest($b1);
			} elsif (!$in_b && set_size($t1) + set_size($t2) + set_size($b1) + set_size($b2) == 2 * $c) {
				set_pop_oldest($b2);
			}
		}
		if (!$in_b) {
			set_add($t1, $x);
		} elsif (set_has($b1, $x)) {
			my $d = set_size($b2) / set_size($b1);
			$p += $d > 1 ? $d : 1;
			$p = $c if $p > $c;
			set_del($b1, $x);
			set_add($t2, $x);
		} else {
			my $d = set_size($b1) / set_size($b2);
			$p -= $d > 1 ? $d : 1;
			$p = 0 if $p < 0;
			set_del($b2, $x);
			set_add($t2, $x);
		}
		$ref{$x} = 0;
	}
	return $misses;
}

# LIRS (Jiang & Zhang, SIGMETRICS 2002, section 3.3), Lhirs = 1% of the
# cache rounded down, at least 1 (REFSIM_LHIRS overrides, for the paper's
# small example).
sub lirs {
	my ($m) = @_;
	my $lhirs = $ENV{REFSIM_LHIRS} // int($m / 100);
	$lhirs = 1 if $lhirs < 1;
	$lhirs = $m - 1 if $m > 1 && $lhirs > $m - 1;
	my $llirs = $m - $lhirs;
	my $S = set_new();    # oldest = bottom of the stack
	my $Q = set_new();    # oldest = front of the list
	my (%lir, %resident);
	my ($nlir, $nres, $misses) = (0, 0, 0);
	my $prune = sub {
		while (defined(my $b = set_oldest($S))) {
			last if $lir{$b};
			set_del($S, $b);
		}
	};
	my $demote_bottom = sub {
		my $b = set_pop_oldest($S);
		$lir{$b} = 0;
		set_add($Q, $b);
		$prune->();
	};
	# A resident HIR block just referenced or loaded: LIR if it is in S,
	# else a HIR block on top of S and at the end of Q.
	my $place_hir = sub {
		my ($x) = @_;
		if (set_has($S, $x)) {
			set_add($S, $x);
			set_del($Q, $x);
			$lir{$x} = 1;
			$demote_bottom->();
		} else {
			set_add($S, $x) if $llirs;
			set_add($Q, $x);
		}
	};
	for my $x (@refs) {
		if ($resident{$x} && $lir{$x}) {
			my $bottom = set_oldest($S) eq $x;
			set_add($S, $x);
			$prune->() if $bottom;
			next;
		}
		if ($resident{$x}) {
			$place_hir->($x);
			next;
		}
		$misses++;
		if ($nres == $m) {
			my $v = set_pop_oldest($Q);
			$resident{$v} = 0;
		} else {
			$nres++;
		}
		$resident{$x} = 1;
		if ($nlir < $llirs) {
			$lir{$x} = 1;
			$nlir++;
			set_add($S, $x);
		} else {
			$place_hir->($x);
		}
	}
	return $misses;
}

# ARC (Megiddo & Modha, FAST 2003, Fig. 4), p real.
sub arc {
	my ($c) = @_;
	my ($t1, $t2, $b1, $b2) = map { set_new() } 1 .. 4;
	my ($p, $misses) = (0, 0);
	my $replace = sub {
		my ($x_in_b2) = @_;
		my $n1 = set_size($t1);
		if ($n1 >= 1 && ($n1 > $p || ($x_in_b2 && $n1 == $p))) {
			set_add($b1, set_pop_oldest($t1));
		} else {
			set_add($b2, set_pop_oldest($t2));
		}
	};
	for my $x (@refs) {
		if (set_has($t1, $x) || set_has($t2, $x)) {
			set_del($t1, $x);
			set_add($t2, $x);
			next;
		}
		$misses++;
		if (set_has($b1, $x)) {
			my $d = set_size($b1) >= set_size($b2) ? 1 : set_size($b2) / set_size($b1);
			$p = $p + $d < $c ? $p + $d : $c;
			$replace->(0);
			set_del($b1, $x);
			set_add($t2, $x);
		} elsif (set_has($b2, $x)) {
			my $d = set_size($b2) >= set_size($b1) ? 1 : set_size($b1) / set_size($b2);
			$p = $p - $d > 0 ? $p - $d : 0;
			$replace->(1);
			set_del($b2, $x);
			set_add($t2, $x);
		} else {
			my $l1 = set_size($t1) + set_size($b1);
			my $all = $l1 + set_size($t2) + set_size($b2);
			if ($l1 == $c) {
				if (set_size($t1) < $c) {
					set_pop_oldest($b1);
					$replace->(0);
				} else {
					set_pop_oldest($t1);
				}
			} elsif ($all >= $c) {
				set_pop_oldest($b2) if $all == 2 * $c;
				$replace->(0);
			}
			set_add($t1, $x);
		}
	}
	return $misses;
}

# Full 2Q (Johnson & Shasha, VLDB 1994), Kin = 25%, Kout = 50% of the slots.
sub twoq {
	my ($c) = @_;
	my ($kin, $kout) = (int($c * 25 / 100), int($c * 50 / 100));
	$kin = $c - 1 if $kin >= $c;
	my ($am, $a1in, $a1out) = map { set_new() } 1 .. 3;
	my $misses = 0;
	my $reclaim = sub {
		return if set_size($am) + set_size($a1in) < $c;
		if (set_size($a1in) > $kin) {
			set_add($a1out, set_pop_oldest($a1in));
			set_pop_oldest($a1out) if set_size($a1out) > $kout;
		} else {
			set_pop_oldest($am);
		}
	};
	for my $x (@refs) {
		if (set_has($am, $x)) { set_add($am, $x); next }
		next if set_has($a1in, $x);
		$misses++;
		if (set_has($a1out, $x)) {
			$reclaim->();
			set_del($a1out, $x);
			set_add($am, $x);
		} else {
			$reclaim->();
			set_add($a1in, $x);
		}
	}
	return $misses;
}

# S3-FIFO (Yang et al., SOSP 2023, Algorithm 1): S 10%, M the rest, G holds
# as many ids as M holds frames.
sub s3fifo {
	my ($c) = @_;
	my $small_cap = int($c / 10);
	$small_cap = 1 if $small_cap < 1;
	my $main_cap = $c - $small_cap;
	my ($S, $M, $G) = map { set_new() } 1 .. 3;
	my %freq;
	my $misses = 0;
	my $evict_m = sub {
		while (defined(my $t = set_oldest($M))) {
			if ($freq{$t} > 0) { $freq{$t}--; set_add($M, $t); next }
			set_del($M, $t);
			return;
		}
	};
	my $evict_s = sub {
		while (defined(my $t = set_oldest($S))) {
			set_del($S, $t);
			if ($freq{$t} > 1) {
				set_add($M, $t);
				$evict_m->() if set_size($M) > $main_cap;
				next;
			}
			set_add($G, $t);
			set_pop_oldest($G) if set_size($G) > $main_cap;
			return;
		}
	};
	for my $x (@refs) {
		if (set_has($S, $x) || set_has($M, $x)) {
			$freq{$x}++ if $freq{$x} < 3;
			next;
		}
		$misses++;
		while (set_size($S) + set_size($M) >= $c) {
			if (set_size($S) >= $small_cap) { $evict_s->() } else { $evict_m->() }
		}
		if (set_has($G, $x)) { set_del($G, $x); set_add($M, $x) } else { set_add($S, $x) }
		$freq{$x} = 0;
	}
	return $misses;
}

# SIEVE (Zhang et al., NSDI 2024): @q holds pages oldest first (the tail at
# index 0, the head at the end), undef marks a removed page.
sub sieve {
	my ($c) = @_;
	my (@q, %at, %visited);
	my ($hand, $n, $misses) = (undef, 0, 0);
	for my $x (@refs) {
		if (exists $at{$x}) { $visited{$x} = 1; next }
		$misses++;
		if ($n == $c) {
			my $i = $hand // 0;
			for (;;) {
				$i = 0 if $i > $#q;
				if (!defined $q[$i]) { $i++; next }
				last unless $visited{ $q[$i] };
				$visited{ $q[$i] } = 0;
				$i++;
			}
			delete $at{ $q[$i] };
			$q[$i] = undef;
			$n--;
			# The hand rests on the next newer page; none past the head.
			$hand = undef;
			for my $j ($i + 1 .. $#q) {
				if (defined $q[$j]) { $hand = $j; last }
			}
			if (@q > 4 * $c) {    # drop the removed slots
				my $hand_page = defined $hand ? $q[$hand] : undef;
				@q = grep { defined } @q;
				$at{ $q[$_] } = $_ for 0 .. $#q;
				$hand = defined $hand_page ? $at{$hand_page} : undef;
			}
		}
		push @q, $x;
		$at{$x} = $#q;
		$visited{$x} = 0;
		$n++;
	}
	return $misses;
}
