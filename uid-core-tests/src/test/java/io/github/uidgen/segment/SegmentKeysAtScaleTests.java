package io.github.uidgen.segment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.lettuce.core.ClientOptions;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many keys on few threads, on the real stores: the generators of a {@link SegmentUidGenerators} claim in the
 * background on a fixed few shared threads however many keys come into use, claim each key's next segment before its
 * current one runs out, never hand out a number twice (also across two instances taking the same keys at once), and
 * keys that are no longer used keep no thread and no claim busy.
 */
class SegmentKeysAtScaleTests {

	private static final int KEYS = 200;

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void twoInstancesTakeManyKeysAtOnceOnTwoThreadsEachAndNoNumberRepeats(SegmentBackend backend)
			throws InterruptedException {
		CountingThreadFactory threads = new CountingThreadFactory();
		try (SegmentBackend.Open first = backend.open();
				SegmentBackend.Open second = backend.open(first.name);
				SegmentUidGenerators one = new SegmentUidGenerators(settings(first.store, threads));
				SegmentUidGenerators other = new SegmentUidGenerators(settings(second.store, threads))) {
			List<String> keys = keys(KEYS);
			// Two taking threads per instance; each takes one number of every key per round, so every key's
			// segments (10 to 40 numbers) run out again and again and are claimed on the shared threads.
			long[][][] ids = takeRoundRobin(new SegmentUidGenerators[] { one, one, other, other }, keys, 40);
			for (int k = 0; k < keys.size(); k++) {
				long[][] ofKey = new long[ids.length][];
				for (int t = 0; t < ids.length; t++) {
					ofKey[t] = ids[t][k];
					assertThat(TakingThreads.firstNotIncreasing(ofKey[t])).as("key %s, thread %d: increasing",
							keys.get(k), t).isEqualTo(-1);
				}
				assertThat(TakingThreads.duplicates(ofKey)).as("duplicates of key %s", keys.get(k)).isZero();
			}
			// Two threads each; when callers wait for claims that have not started (the store is slower than this
			// demand), each instance may add threads up to four times that, however many keys there are.
			assertThat(threads.created()).as("threads of both instances for %d keys", KEYS)
				.hasSizeBetween(4, 2 * SegmentSettings.EXTRA_THREADS_FACTOR * 2);
			assertThat(one.generators()).hasSize(KEYS);
			assertThat(one.generators().values().stream().mapToLong(SegmentUidGenerator::getSegmentsFetched).sum())
				.as("segments claimed by one instance").isGreaterThan(2L * KEYS);
		}
		assertThat(threads.created()).as("stopped on close").allSatisfy((thread) -> awaitEnd(thread));
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void everyKeysNextSegmentIsClaimedInTheBackgroundBeforeItsCurrentOneRunsOut(SegmentBackend backend) {
		CountingThreadFactory threads = new CountingThreadFactory();
		try (SegmentBackend.Open open = backend.open();
				SegmentUidGenerators generators = new SegmentUidGenerators(SegmentUidGenerator.builder(open.store)
					.step(10)
					.maxStep(10)
					.prefetchThreshold(50)
					.prefetchThreadFactory(threads))) {
			List<String> keys = keys(KEYS);
			for (String key : keys) {
				for (int i = 1; i <= 6; i++) {
					assertThat(generators.forKey(key).getUID()).isEqualTo(i);
				}
			}
			SegmentUidGeneratorTests.await(() -> generators.generators()
				.values()
				.stream()
				.allMatch((generator) -> generator.getSegmentsFetched() == 2), "the second segment of every key");
			for (String key : keys) {
				assertThat(generators.forKey(key).getRemaining()).as(key).isEqualTo(4 + 10);
			}
			assertThat(threads.created()).hasSize(SegmentUidGenerator.DEFAULT_PREFETCH_THREADS);
		}
	}

	@Test
	void theFirstNumbersOfManyKeysAskedForByManyThreadsAtOnceComeFromOneGeneratorPerKey() throws Exception {
		try (SegmentBackend.Open open = SegmentBackend.REDIS.open();
				SegmentUidGenerators generators = new SegmentUidGenerators(SegmentUidGenerator.builder(open.store)
					.step(10))) {
			List<String> keys = keys(KEYS);
			Map<String, Integer> announced = new ConcurrentHashMap<>();
			generators.whenCreated((generator) -> announced.merge(generator.getKey(), 1, Integer::sum));
			int threadCount = 8;
			List<Map<String, SegmentUidGenerator>> seen = new CopyOnWriteArrayList<>();
			List<long[]> firstNumbers = new CopyOnWriteArrayList<>();
			CountDownLatch start = new CountDownLatch(1);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<Thread> callers = new ArrayList<>();
			for (int t = 0; t < threadCount; t++) {
				List<String> order = new ArrayList<>(keys);
				Collections.shuffle(order);
				Thread caller = new Thread(() -> {
					Map<String, SegmentUidGenerator> mine = new ConcurrentHashMap<>();
					long[] numbers = new long[keys.size()];
					try {
						start.await();
						for (String key : order) {
							SegmentUidGenerator generator = generators.forKey(key);
							mine.put(key, generator);
							numbers[keys.indexOf(key)] = generator.getUID();
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
					seen.add(mine);
					firstNumbers.add(numbers);
				});
				callers.add(caller);
				caller.start();
			}
			start.countDown();
			for (Thread caller : callers) {
				caller.join(60_000);
			}
			assertThat(failure.get()).isNull();
			for (String key : keys) {
				SegmentUidGenerator generator = generators.generators().get(key);
				assertThat(seen).as(key).allSatisfy((mine) -> assertThat(mine.get(key)).isSameAs(generator));
				assertThat(generator.getSegmentsFetched()).as("one first claim for %s", key).isOne();
			}
			assertThat(announced).hasSize(KEYS).allSatisfy((key, times) -> assertThat(times).isOne());
			for (int k = 0; k < keys.size(); k++) {
				long[] ofKey = new long[threadCount];
				for (int t = 0; t < threadCount; t++) {
					ofKey[t] = firstNumbers.get(t)[k];
				}
				assertThat(ofKey).as(keys.get(k)).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8);
			}
		}
	}

	/**
	 * "No longer used" means no number asked of a key for {@code idleAfter} (a minute by default, half a second
	 * here). While the store is down, only keys in use keep retrying; an idle key stops after its first retry past
	 * that, and makes no claim after the store is back until it is used again. Idle or not, a key holds no thread:
	 * once nothing is wanted, every shared thread is parked without a timeout.
	 */
	@Test
	void keysNoLongerUsedKeepNoThreadsAndNoClaimsBusy(@TempDir Path dir) throws InterruptedException {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			LettuceConnectionFactory factory = failingFast(redis.port());
			CountingThreadFactory threads = new CountingThreadFactory();
			SegmentUidGenerator.Builder settings = SegmentUidGenerator
				.builder(RedisSegmentStore.builder(factory).build())
				.step(1000)
				.maxStep(1000)
				.prefetchThreshold(50)
				.waitTimeout(Duration.ofSeconds(1))
				.prefetchThreadFactory(threads);
			settings.settings().idleAfter(Duration.ofMillis(500));
			try (SegmentUidGenerators generators = new SegmentUidGenerators(settings)) {
				SegmentUidGenerator busy = generators.forKey("busy");
				List<SegmentUidGenerator> idle = new ArrayList<>();
				for (String key : keys(20)) {
					idle.add(generators.forKey(key));
				}
				redis.stop();
				long[] busyIds = take(busy, 510);
				for (SegmentUidGenerator generator : idle) {
					take(generator, 510);
				}
				// The key in use: one number every 100 ms from now on (its 490 left last 49 s, past the test).
				PacedTaker inUse = new PacedTaker(busy);
				inUse.start();
				try {
					awaitWithin(Duration.ofSeconds(30),
							() -> Arrays.stream(failures(idle)).noneMatch((count) -> count == 0),
							"each idle key's prefetch to be tried and fail");
					// An idle key's retry that comes due finds it unused for idleAfter and ends: nothing asked for,
					// under way or due, so nothing can fail again until the key is used.
					awaitWithin(Duration.ofSeconds(30), () -> idle.stream().noneMatch(SegmentUidGenerator::claimPending),
							"each idle key to stop retrying");
					long[] idleFailures = failures(idle);
					long busyFailures = busy.getStoreFailureCount();
					// Meanwhile the key in use goes on retrying: two more of its failures, and none of an idle key.
					awaitWithin(Duration.ofSeconds(30), () -> busy.getStoreFailureCount() >= busyFailures + 2,
							"the key in use to go on retrying");
					assertThat(failures(idle)).as("idle keys stopped retrying").containsExactly(idleFailures);
					assertThat(idle).as("idle keys asked for nothing more")
						.noneMatch(SegmentUidGenerator::claimPending);
					assertThat(idleFailures).as("each idle key's prefetch was tried and failed").doesNotContain(0L);

					redis.start();
					// Lettuce reconnects with a growing delay, up to 30 s.
					awaitWithin(Duration.ofSeconds(60), () -> busy.getSegmentsFetched() == 2,
							"the key in use claiming its next segment in the background");
					assertThat(busy.getRemaining()).as("claimed before the current segment ran out")
						.isGreaterThan(1000);
					assertThat(idle).as("idle keys claim nothing once the store is back")
						.allSatisfy((generator) -> assertThat(generator.getSegmentsFetched()).isOne());
				}
				finally {
					inUse.stopTaking();
				}
				// A thread parked until a retry that another thread has run wakes by that retry's time (2 s at most)
				// and parks again without a timeout.
				awaitWithin(Duration.ofSeconds(30),
						() -> threads.created().stream().allMatch((thread) -> thread.getState() == Thread.State.WAITING),
						"every shared thread to park without a timeout");
				assertThat(threads.created()).hasSize(SegmentUidGenerator.DEFAULT_PREFETCH_THREADS);
				assertThat(idle).as("idle keys still claim nothing")
					.allSatisfy((generator) -> assertThat(generator.getSegmentsFetched()).isOne())
					.noneMatch(SegmentUidGenerator::claimPending);

				SegmentUidGenerator backInUse = idle.get(0);
				long[] rest = take(backInUse, 491);
				assertThat(rest[489]).isEqualTo(1000);
				assertThat(rest[490]).as("its next caller asks for a segment and gets it").isEqualTo(1001);
				long[] busyAfter = take(busy, 600);
				assertThat(TakingThreads.duplicates(busyIds, inUse.taken(), busyAfter)).isZero();
				assertThat(TakingThreads.firstNotIncreasing(inUse.taken())).isEqualTo(-1);
			}
			finally {
				factory.destroy();
			}
		}
	}

	/** A connection that fails a command at once while Redis is down, so each claim fails fast. */
	private static LettuceConnectionFactory failingFast(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
				port), LettuceClientConfiguration.builder()
					.clientOptions(ClientOptions.builder()
						.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
						.build())
					.commandTimeout(Duration.ofSeconds(2))
					.build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static SegmentUidGenerator.Builder settings(SegmentStore store, ThreadFactory threads) {
		return SegmentUidGenerator.builder(store).step(10).maxStep(40).prefetchThreshold(50)
			.prefetchThreadFactory(threads);
	}

	private static List<String> keys(int count) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			keys.add("tenant-" + i);
		}
		return keys;
	}

	/**
	 * Starts one thread per entry; each takes, {@code rounds} times, one number of every key in turn.
	 * @return per thread, per key, the numbers in the order taken
	 */
	private static long[][][] takeRoundRobin(SegmentUidGenerators[] instances, List<String> keys, int rounds)
			throws InterruptedException {
		long[][][] ids = new long[instances.length][keys.size()][rounds];
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> takers = new ArrayList<>();
		for (int t = 0; t < instances.length; t++) {
			SegmentUidGenerators instance = instances[t];
			long[][] mine = ids[t];
			Thread taker = new Thread(() -> {
				try {
					start.await();
					for (int round = 0; round < rounds; round++) {
						for (int k = 0; k < keys.size(); k++) {
							mine[k][round] = instance.forKey(keys.get(k)).getUID();
						}
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "keys-taker-" + t);
			takers.add(taker);
			taker.start();
		}
		start.countDown();
		for (Thread taker : takers) {
			taker.join(120_000);
		}
		if (failure.get() != null) {
			throw new AssertionError("A taker failed", failure.get());
		}
		return ids;
	}

	private static long[] take(SegmentUidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	private static long[] failures(List<SegmentUidGenerator> generators) {
		return generators.stream().mapToLong(SegmentUidGenerator::getStoreFailureCount).toArray();
	}

	private static void awaitWithin(Duration bound, BooleanSupplier condition, String what)
			throws InterruptedException {
		long deadline = System.nanoTime() + bound.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Gave up waiting for " + what + " after " + bound);
			}
			Thread.sleep(20);
		}
	}

	private static void awaitEnd(Thread thread) {
		SegmentUidGeneratorTests.await(() -> !thread.isAlive(), thread.getName() + " to end");
	}

	/** Takes one number of a key every 100 ms until stopped, as a key in use. */
	private static final class PacedTaker extends Thread {

		private final SegmentUidGenerator generator;

		private final List<Long> ids = new CopyOnWriteArrayList<>();

		private volatile boolean stopped;

		private volatile Throwable failure;

		PacedTaker(SegmentUidGenerator generator) {
			super("paced-taker");
			this.generator = generator;
			setDaemon(true);
		}

		@Override
		public void run() {
			try {
				while (!this.stopped) {
					this.ids.add(this.generator.getUID());
					Thread.sleep(100);
				}
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
		}

		void stopTaking() throws InterruptedException {
			this.stopped = true;
			join(10_000);
			if (this.failure != null) {
				throw new AssertionError("The paced taker failed", this.failure);
			}
		}

		long[] taken() {
			return this.ids.stream().mapToLong(Long::longValue).toArray();
		}

	}

}
