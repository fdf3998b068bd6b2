package io.github.uidgen.segment.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUnavailableException;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.StatementCuttingProxy;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database connection fails in the middle of a Leaf-table claim, at each step of it: the {@code UPDATE} never
 * arrives or its answer is lost, the {@code SELECT}'s answer is lost, the {@code COMMIT} never arrives or its answer
 * is lost. Meanwhile a uid generator (through a proxy that cuts its connections) and a Leaf server (straight to the
 * database) hand out numbers from the same row. A claim the database rolled back costs nothing; a claim whose commit
 * answer was lost is a gap in the row's counter, and nothing else is: no number is handed out twice, and the
 * generator carries on once the database answers again.
 */
class LeafAllocClaimCutMidwayTests {

	private static final String TAG = "order";

	private static final long LIVE_MAX_ID = 7_000_001;

	private static final int ROW_STEP = 100;

	private static final int ROUNDS = 2;

	private static final int UID_THREADS = 2;

	private static final int CAPACITY = 1_500_000;

	private static final Duration BOUND = Duration.ofSeconds(10);

	@Test
	void aConnectionCutAtAnyStepOfAClaimLeavesAGapAtMostAndNeverRepeatsANumber() throws Exception {
		String table = TestDatabases.uniqueTable("leaf_alloc");
		try (HikariDataSource leafPool = Database.MARIADB.open();
				StatementCuttingProxy proxy = StatementCuttingProxy.start(3306);
				HikariDataSource uidPool = proxy.pool("uid-test-cut")) {
			LeafTables.create(Database.MARIADB, leafPool, table);
			List<Thread> threads = new ArrayList<>();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			SegmentUidGenerator generator = null;
			AtomicBoolean stop = new AtomicBoolean();
			try {
				LeafTables.insert(leafPool, table, TAG, LIVE_MAX_ID, ROW_STEP);
				List<SegmentRange> uidClaims = new CopyOnWriteArrayList<>();
				SegmentStore leafTable = LeafAllocSegmentStore.builder(uidPool)
					.table(table)
					.timeout(Duration.ofSeconds(2))
					.build();
				SegmentStore recorded = (key, size) -> {
					SegmentRange range = leafTable.claim(key, size);
					uidClaims.add(range);
					return range;
				};
				generator = SegmentUidGenerator.builder(recorded)
					.key(TAG)
					.step(100)
					.maxStep(400)
					.waitTimeout(Duration.ofSeconds(2))
					.build();

				AtomicLong unavailable = new AtomicLong();
				long[][] uidNumbers = new long[UID_THREADS][CAPACITY];
				AtomicIntegerArray uidIssued = new AtomicIntegerArray(UID_THREADS);
				for (int t = 0; t < UID_THREADS; t++) {
					int index = t;
					SegmentUidGenerator uid = generator;
					threads.add(thread("uid-" + t, failure, () -> {
						long[] mine = uidNumbers[index];
						int issued = 0;
						while (!stop.get() && issued < mine.length) {
							try {
								mine[issued++] = uid.getUID();
							}
							catch (SegmentUnavailableException ex) {
								// The store failed and no claim is left: the caller sees it, and asks again.
								issued--;
								unavailable.incrementAndGet();
								Thread.sleep(1);
							}
							if (issued % 20 == 0) {
								Thread.sleep(1);
							}
							uidIssued.set(index, issued);
						}
					}));
				}
				List<SegmentRange> leafClaims = new CopyOnWriteArrayList<>();
				List<long[]> leafNumbers = new CopyOnWriteArrayList<>();
				LeafProtocolClaimer leaf = new LeafProtocolClaimer(leafPool, table);
				threads.add(thread("leaf", failure, () -> {
					// As a Leaf server: the row's step first, then its step doubled; every number of a claim issued.
					LeafProtocolClaimer.Claim claim = leaf.claimWithRowStep(TAG);
					while (true) {
						leafClaims.add(claim.range());
						long[] numbers = new long[(int) claim.range().size()];
						for (int i = 0; i < numbers.length; i++) {
							numbers[i] = claim.range().first() + i;
						}
						leafNumbers.add(numbers);
						Thread.sleep(10);
						if (stop.get()) {
							return;
						}
						claim = leaf.claimWithStep(TAG, (int) (2 * claim.rowStep()));
					}
				}));
				threads.forEach(Thread::start);

				// Every step of a claim, cut in turn; each time the generator must claim again before the next cut.
				String update = "UPDATE " + table;
				String select = "SELECT max_id, step FROM " + table;
				List<Runnable> cuts = List.of(() -> proxy.loseRequest(update), () -> proxy.loseReply(update),
						() -> proxy.loseReply(select), () -> proxy.loseRequest("commit"),
						() -> proxy.loseReply("commit"));
				int made = 0;
				for (int round = 0; round < ROUNDS; round++) {
					for (Runnable cut : cuts) {
						cut.run();
						proxy.awaitCuts(++made, BOUND);
						int claimsAtCut = uidClaims.size();
						await(() -> uidClaims.size() > claimsAtCut + 1 || failure.get() != null,
								"the generator claims again after " + proxy.cuts().get(made - 1));
					}
				}
				long issuedAfterCuts = issued(uidIssued);
				await(() -> issued(uidIssued) > issuedAfterCuts + 1000 || failure.get() != null,
						"numbers handed out after the last cut");
				stop.set(true);
				for (Thread thread : threads) {
					thread.join(BOUND.toMillis());
					assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
				}
				if (failure.get() != null) {
					throw new AssertionError("A taker failed", failure.get());
				}
				// No claim in flight while the claims are compared with the table.
				generator.close();

				List<String> cutsMade = proxy.cuts();
				assertThat(cutsMade).hasSize(ROUNDS * cuts.size());
				assertThat(cutsMade).as("every statement reached as planned").allMatch(
						(cut) -> cut.startsWith("request ") || cut.startsWith("reply OK "));
				long lostCommits = cutsMade.stream().filter((cut) -> cut.equalsIgnoreCase("reply OK commit")).count();
				assertThat(lostCommits).isEqualTo(ROUNDS);

				long[][] uidTaken = new long[UID_THREADS][];
				for (int t = 0; t < UID_THREADS; t++) {
					uidTaken[t] = Arrays.copyOf(uidNumbers[t], uidIssued.get(t));
				}
				long[] all = Duplicates.concat(Duplicates.concat(uidTaken),
						Duplicates.concat(leafNumbers.toArray(long[][]::new)));
				assertThat(Duplicates.count(all)).as("numbers handed out twice").isZero();

				RecordedClaims uidOwn = new RecordedClaims(uidClaims);
				for (long[] numbers : uidTaken) {
					for (long number : numbers) {
						assertThat(uidOwn.cover(number)).as("%d inside a claim of the generator", number).isTrue();
					}
				}
				// The claims are disjoint and within what the table moved past; where they leave a hole, a claim
				// was committed whose answer was lost: exactly one hole for each, and none for any other cut.
				List<SegmentRange> everyClaim = new ArrayList<>(leafClaims);
				everyClaim.addAll(uidClaims);
				everyClaim.sort(Comparator.comparingLong(SegmentRange::first));
				long maxId = LeafTables.maxId(leafPool, table, TAG);
				long next = LIVE_MAX_ID;
				List<SegmentRange> gaps = new ArrayList<>();
				for (SegmentRange claim : everyClaim) {
					assertThat(claim.first()).as("claims are disjoint: %s", claim).isGreaterThanOrEqualTo(next);
					if (claim.first() > next) {
						gaps.add(new SegmentRange(next, claim.first() - 1));
					}
					next = claim.last() + 1;
				}
				assertThat(next).as("every claim recorded by the table").isLessThanOrEqualTo(maxId);
				if (next < maxId) {
					gaps.add(new SegmentRange(next, maxId - 1));
				}
				assertThat(gaps).as("gaps, one for each lost commit answer").hasSize((int) lostCommits);
				assertThat(gaps).allMatch((gap) -> gap.size() >= ROW_STEP);
				assertThat(LeafTables.step(leafPool, table, TAG)).as("never written").isEqualTo(ROW_STEP);
				System.out.printf("%d cuts %s; %,d numbers, %d uid claims, %d Leaf claims, gaps %s, %d unavailable%n",
						cutsMade.size(), cutsMade, all.length, uidClaims.size(), leafClaims.size(), gaps,
						unavailable.get());
			}
			finally {
				stop.set(true);
				for (Thread thread : threads) {
					thread.join(BOUND.toMillis());
				}
				if (generator != null) {
					generator.close();
				}
				TestDatabases.dropTable(leafPool, table);
			}
		}
	}

	private static long issued(AtomicIntegerArray issued) {
		long sum = 0;
		for (int i = 0; i < issued.length(); i++) {
			sum += issued.get(i);
		}
		return sum;
	}

	private static void await(BooleanSupplier condition, String what) throws InterruptedException {
		long deadline = System.nanoTime() + BOUND.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime() - deadline).as("waiting for %s", what).isNegative();
			TimeUnit.MILLISECONDS.sleep(5);
		}
	}

	@FunctionalInterface
	private interface Work {

		void run() throws Exception;

	}

	private static Thread thread(String name, AtomicReference<Throwable> failure, Work work) {
		return new Thread(() -> {
			try {
				work.run();
			}
			catch (Throwable ex) {
				failure.compareAndSet(null, ex);
			}
		}, name);
	}

}
