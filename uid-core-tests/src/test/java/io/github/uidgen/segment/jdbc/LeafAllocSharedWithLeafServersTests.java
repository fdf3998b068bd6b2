package io.github.uidgen.segment.jdbc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rolling replacement caught in the middle: uid instances and Leaf servers hand out numbers from the same live
 * {@code leaf_alloc} row at the same time, over a million in all. No number twice, every claim recorded by the table
 * exactly once (the claims tile the row's counter from where it stood to where it ends), and every number inside a
 * claim of whoever handed it out.
 */
class LeafAllocSharedWithLeafServersTests {

	private static final String TAG = "order";

	private static final long LIVE_MAX_ID = 48_000_001;

	private static final int ROW_STEP = 1000;

	private static final int UID_INSTANCES = 3;

	private static final int THREADS_PER_UID_INSTANCE = 2;

	private static final int NUMBERS_PER_UID_THREAD = 120_000;

	private static final int LEAF_THREADS = 3;

	private static final int NUMBERS_PER_LEAF_THREAD = 100_000;

	@ParameterizedTest
	@EnumSource(Database.class)
	void uidInstancesAndLeafServersShareARowWithoutANumberTwice(Database database) throws Exception {
		String table = TestDatabases.uniqueTable("leaf_alloc");
		List<HikariDataSource> pools = new ArrayList<>();
		List<SegmentUidGenerator> generators = new ArrayList<>();
		try (HikariDataSource leafPool = database.open()) {
			LeafTables.create(database, leafPool, table);
			try {
				LeafTables.insert(leafPool, table, TAG, LIVE_MAX_ID, ROW_STEP);
				List<List<SegmentRange>> uidClaims = new ArrayList<>();
				for (int i = 0; i < UID_INSTANCES; i++) {
					HikariDataSource pool = database.open();
					pools.add(pool);
					List<SegmentRange> claims = new CopyOnWriteArrayList<>();
					uidClaims.add(claims);
					SegmentStore leafTable = LeafAllocSegmentStore.builder(pool).table(table).build();
					SegmentStore recorded = (key, size) -> {
						SegmentRange range = leafTable.claim(key, size);
						claims.add(range);
						return range;
					};
					generators.add(SegmentUidGenerator.builder(recorded).key(TAG).step(500).maxStep(2000).build());
				}
				List<SegmentRange> leafClaims = new CopyOnWriteArrayList<>();
				LeafProtocolClaimer leaf = new LeafProtocolClaimer(leafPool, table);

				CountDownLatch start = new CountDownLatch(1);
				AtomicReference<Throwable> failure = new AtomicReference<>();
				List<Thread> threads = new ArrayList<>();
				long[][] uidNumbers = new long[UID_INSTANCES * THREADS_PER_UID_INSTANCE][];
				for (int t = 0; t < uidNumbers.length; t++) {
					SegmentUidGenerator generator = generators.get(t / THREADS_PER_UID_INSTANCE);
					long[] mine = new long[NUMBERS_PER_UID_THREAD];
					uidNumbers[t] = mine;
					threads.add(thread("uid-" + t, start, failure, () -> {
						for (int i = 0; i < mine.length; i++) {
							mine[i] = generator.getUID();
						}
					}));
				}
				long[][] leafNumbers = new long[LEAF_THREADS][NUMBERS_PER_LEAF_THREAD];
				for (int t = 0; t < LEAF_THREADS; t++) {
					long[] mine = leafNumbers[t];
					threads.add(thread("leaf-" + t, start, failure, () -> {
						// As a Leaf server: the row's step first, then its step doubled after a quick segment.
						int issued = 0;
						LeafProtocolClaimer.Claim claim = leaf.claimWithRowStep(TAG);
						while (true) {
							leafClaims.add(claim.range());
							for (long n = claim.range().first(); n <= claim.range().last() && issued < mine.length; n++) {
								mine[issued++] = n;
							}
							if (issued == mine.length) {
								return;
							}
							claim = leaf.claimWithStep(TAG, (int) (2 * claim.rowStep()));
						}
					}));
				}
				long started = System.nanoTime();
				start.countDown();
				for (Thread thread : threads) {
					thread.join(TimeUnit.MINUTES.toMillis(2));
					assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
				}
				if (failure.get() != null) {
					throw new AssertionError("A taker failed", failure.get());
				}
				long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
				// No claim in flight while the claims are compared with the table.
				generators.forEach(SegmentUidGenerator::close);

				long[] all = Duplicates.concat(Duplicates.concat(uidNumbers), Duplicates.concat(leafNumbers));
				assertThat(all.length).isGreaterThanOrEqualTo(1_000_000);
				assertThat(Duplicates.count(all)).as("numbers handed out twice").isZero();

				List<SegmentRange> everyClaim = new ArrayList<>(leafClaims);
				uidClaims.forEach(everyClaim::addAll);
				everyClaim.sort(Comparator.comparingLong(SegmentRange::first));
				long next = LIVE_MAX_ID;
				for (SegmentRange claim : everyClaim) {
					assertThat(claim.first()).as("claims tile the counter: %s", claim).isEqualTo(next);
					next = claim.last() + 1;
				}
				assertThat(LeafTables.maxId(leafPool, table, TAG)).as("every claim recorded by the table")
					.isEqualTo(next);
				assertThat(LeafTables.step(leafPool, table, TAG)).as("never written").isEqualTo(ROW_STEP);

				for (int t = 0; t < uidNumbers.length; t++) {
					RecordedClaims own = new RecordedClaims(uidClaims.get(t / THREADS_PER_UID_INSTANCE));
					for (long number : uidNumbers[t]) {
						assertThat(own.cover(number)).as("%d inside a claim of its instance", number).isTrue();
					}
				}
				RecordedClaims leafOwn = new RecordedClaims(leafClaims);
				for (long[] numbers : leafNumbers) {
					for (long number : numbers) {
						assertThat(leafOwn.cover(number)).as("%d inside a Leaf claim", number).isTrue();
					}
				}
				assertThat(leafClaims).as("Leaf servers claimed in between").hasSizeGreaterThan(10);
				System.out.printf("%s: %,d numbers, %d uid claims and %d Leaf claims in %,d ms%n", database,
						all.length, everyClaim.size() - leafClaims.size(), leafClaims.size(), elapsedMillis);
			}
			finally {
				generators.forEach(SegmentUidGenerator::close);
				pools.forEach(HikariDataSource::close);
				TestDatabases.dropTable(leafPool, table);
			}
		}
	}

	@FunctionalInterface
	private interface Work {

		void run() throws Exception;

	}

	private static Thread thread(String name, CountDownLatch start, AtomicReference<Throwable> failure, Work work) {
		Thread thread = new Thread(() -> {
			try {
				start.await();
				work.run();
			}
			catch (Throwable ex) {
				failure.compareAndSet(null, ex);
			}
		}, name);
		thread.start();
		return thread;
	}

}
