package io.github.uidgen.segment;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What every segment store promises, on each real server: a new key starts at 1, claims of a key are contiguous and
 * never overlap, also when two store instances claim at the same time from many threads, and keys are independent;
 * and what the store holds reads back, every key with its counter, in key order, the list bounded and the count whole.
 */
class SegmentStoreContractTests {

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void aNewKeyStartsAtOneAndClaimsFollowEachOther(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			assertThat(open.store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(open.store.claim("orders", 5)).isEqualTo(new SegmentRange(11, 15));
			assertThat(open.store.claim("orders", 1)).isEqualTo(new SegmentRange(16, 16));
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void keysAreIndependent(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			assertThat(open.store.claim("orders", 100)).isEqualTo(new SegmentRange(1, 100));
			assertThat(open.store.claim("invoices", 7)).isEqualTo(new SegmentRange(1, 7));
			assertThat(open.store.claim("orders", 100)).isEqualTo(new SegmentRange(101, 200));
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void aCounterSetByHandIsContinued(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			open.store.claim("tickets", 1);
			open.setCounter("tickets", 9_999_999);
			assertThat(open.store.claim("tickets", 1000)).isEqualTo(new SegmentRange(10_000_000, 10_000_999));
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void twoInstancesClaimingAtOnceFromManyThreadsGetDisjointContiguousRanges(SegmentBackend backend)
			throws InterruptedException {
		try (SegmentBackend.Open first = backend.open(); SegmentBackend.Open second = backend.open(first.name)) {
			// The first claim of a key creates it; both instances race for that too.
			List<SegmentRange> ranges = claimConcurrently(List.of(first.store, second.store), 6, 40);
			ranges.sort(Comparator.comparingLong(SegmentRange::first));
			long expectedFirst = 1;
			for (SegmentRange range : ranges) {
				assertThat(range.first()).as("ranges are contiguous and disjoint: %s", range).isEqualTo(expectedFirst);
				expectedFirst = range.last() + 1;
			}
			assertThat(ranges).hasSize(2 * 6 * 40);
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void everyClaimedKeyReadsBackWithTheLastNumberHandedOutInKeyOrder(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			Instant before = Instant.now().minusSeconds(60);
			open.store.claim("tickets", 3);
			open.store.claim("orders", 10);
			open.store.claim("invoices", 7);
			open.store.claim("orders", 5);
			StoredKeys stored = open.store.readKeys(10).orElseThrow();
			assertThat(stored.store()).isEqualTo(open.store.name());
			assertThat(stored.location()).isEqualTo(open.name);
			assertThat(stored.count()).isEqualTo(3);
			assertThat(stored.truncated()).isFalse();
			assertThat(stored.keys()).extracting(StoredKey::key, StoredKey::maxId, StoredKey::step)
				.containsExactly(tuple("invoices", 7L, null), tuple("orders", 15L, null), tuple("tickets", 3L, null));
			if (backend == SegmentBackend.REDIS) {
				assertThat(stored.keys()).as("INCRBY records no time").allMatch((key) -> key.lastClaim() == null);
			}
			else {
				Instant after = Instant.now().plusSeconds(60);
				assertThat(stored.keys()).allSatisfy((key) -> assertThat(key.lastClaim()).isBetween(before, after));
				assertThat(stored.keys().get(1).lastClaim()).as("orders was claimed after tickets")
					.isAfterOrEqualTo(stored.keys().get(2).lastClaim());
			}
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void theListStopsAtTheLimitWhileTheCountCoversEveryKey(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			for (String key : List.of("k4", "k2", "k5", "k1", "k3")) {
				open.store.claim(key, 1);
			}
			StoredKeys two = open.store.readKeys(2).orElseThrow();
			assertThat(two.count()).isEqualTo(5);
			assertThat(two.keys()).extracting(StoredKey::key).containsExactly("k1", "k2");
			assertThat(two.truncated()).isTrue();
			StoredKeys none = open.store.readKeys(0).orElseThrow();
			assertThat(none.count()).isEqualTo(5);
			assertThat(none.keys()).isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void aStoreWithoutKeysAnswersAnEmptyList(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			StoredKeys stored = open.store.readKeys(10).orElseThrow();
			assertThat(stored.store()).isEqualTo(open.store.name());
			assertThat(stored.location()).isEqualTo(open.name);
			assertThat(stored.count()).isZero();
			assertThat(stored.keys()).isEmpty();
		}
	}

	private static List<SegmentRange> claimConcurrently(List<SegmentStore> stores, int threadsPerStore, int claims)
			throws InterruptedException {
		List<SegmentRange> ranges = new ArrayList<>();
		List<Thread> threads = new ArrayList<>();
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		for (SegmentStore store : stores) {
			for (int t = 0; t < threadsPerStore; t++) {
				Thread thread = new Thread(() -> {
					List<SegmentRange> mine = new ArrayList<>();
					try {
						start.await();
						for (int i = 0; i < claims; i++) {
							mine.add(store.claim("race", ThreadLocalRandom.current().nextLong(1, 50)));
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
					synchronized (ranges) {
						ranges.addAll(mine);
					}
				});
				threads.add(thread);
				thread.start();
			}
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join(60_000);
		}
		if (failure.get() != null) {
			throw new AssertionError("A claim failed", failure.get());
		}
		return ranges;
	}

}
