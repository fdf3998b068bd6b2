package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.autoconfigure.actuate.IssuerLookup.IssuedBy;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.ParsedUid;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code fleet} operation of {@link UidEndpoint} and the {@code issuedBy} of {@code parse}, called
 * directly, over assigners of the SPI: how the endpoint presents what a store answers, and how it answers when the
 * store does not. The stores' own readings are checked against real servers by {@code WorkerFleetContract}.
 */
class UidEndpointFleetTests {

	private static final long WORKER = 7;

	private static final Instant CLAIMED = Instant.parse("2026-11-27T10:00:00Z");

	@Test
	void aConfiguredWorkerIdAnswersWithItself() {
		try (DefaultUidGenerator generator = generator(new FixedWorkerIdAssigner(WORKER));
				UidEndpoint endpoint = endpoint(generator, new FixedWorkerIdAssigner(WORKER))) {
			FleetDescriptor fleet = endpoint.fleet();
			assertThat(fleet.complete()).isTrue();
			assertThat(fleet.workerId()).isEqualTo(WORKER);
			assertThat(fleet.workers().store()).isEqualTo("fixed");
			assertThat(fleet.workers().location()).contains("keeps no shared record");
			assertThat(fleet.workers().list()).singleElement().satisfies((worker) -> {
				assertThat(worker.workerId()).isEqualTo(WORKER);
				assertThat(worker.instanceId()).isEqualTo("instance-a");
				assertThat(worker.self()).isTrue();
			});
			assertThat(fleet.workers().space()).isEqualTo(1024);
			assertThat(fleet.workers().heldPercent()).isEqualTo(0.1);

			ParsedUid own = parsed(endpoint.parse("parse", Long.toString(generator.getUID())));
			assertThat(own.issuedBy().instanceId()).isEqualTo("instance-a");
			ParsedUid other = parsed(endpoint.parse("parse", Long.toString(generator.status().layout().compose(1_000, 0, 3, 0))));
			assertThat(other.issuedBy().instanceId()).isNull();
			assertThat(other.issuedBy().note()).contains("keeps no shared record").contains("worker 3");
		}
	}

	@Test
	void theFleetListsWhatTheStoreHoldsAndMarksThisInstance() {
		RecordedStore store = new RecordedStore();
		try (DefaultUidGenerator generator = generator(store); UidEndpoint endpoint = endpoint(generator, store)) {
			FleetDescriptor fleet = endpoint.fleet();
			assertThat(fleet.complete()).isTrue();
			assertThat(fleet.problem()).isNull();
			assertThat(fleet.workers().store()).isEqualTo("recorded");
			assertThat(fleet.workers().held()).isEqualTo(2);
			assertThat(fleet.workers().known()).isEqualTo(3);
			assertThat(fleet.workers().heldPercent()).isEqualTo(0.2);
			assertThat(fleet.workers().list()).extracting(FleetDescriptor.WorkerDescriptor::workerId)
				.containsExactly(3L, WORKER, 9L);
			assertThat(fleet.workers().list()).extracting(FleetDescriptor.WorkerDescriptor::self)
				.containsExactly(false, true, false);
			FleetDescriptor.WorkerDescriptor released = fleet.workers().list().get(2);
			assertThat(released.state()).isEqualTo("RELEASED");
			assertThat(released.highWaterMark()).isEqualTo("2026-11-27T09:00:00Z");
			assertThat(fleet.workers().list().get(0).highWaterMark()).isNull();
		}
	}

	@Test
	void parseNamesTheInstanceThatHeldTheWorkerIdByTheMarks() {
		RecordedStore store = new RecordedStore();
		try (DefaultUidGenerator generator = generator(store); UidEndpoint endpoint = endpoint(generator, store)) {
			long handOver = CLAIMED.toEpochMilli();
			IssuedBy before = issuedBy(endpoint, generator, handOver);
			assertThat(before.instanceId()).isEqualTo("instance-old");
			assertThat(before.host()).isEqualTo("host-old");
			assertThat(before.claimEnd()).isEqualTo("RELEASED");
			assertThat(before.heldUntil()).isEqualTo(CLAIMED.toString());
			IssuedBy after = issuedBy(endpoint, generator, handOver + 1);
			assertThat(after.instanceId()).isEqualTo("instance-a");
			assertThat(after.claimEnd()).isEqualTo("OPEN");
			assertThat(after.heldUntil()).isNull();
			IssuedBy older = issuedBy(endpoint, generator, handOver - 3_600_000);
			assertThat(older.instanceId()).isNull();
			assertThat(older.note()).contains("no longer reaches back so far").contains("instance-old")
				.contains("2 claims of worker " + WORKER + " on record")
				.contains("lost with the store's data");
		}
	}

	@Test
	void aStoreThatDoesNotAnswerInTimeGivesAPartialAnswerAndDecodingGoesOn() throws Exception {
		CountDownLatch never = new CountDownLatch(1);
		HangingStore store = new HangingStore(never);
		try (DefaultUidGenerator generator = generator(new FixedWorkerIdAssigner(WORKER));
				UidEndpoint endpoint = new UidEndpoint(generator, null, null, false, UidClock.SYSTEM,
						new UidEndpoint.Stores(store, null, Duration.ofMillis(200), "instance-a"))) {
			FleetDescriptor fleet = endpoint.fleet();
			assertThat(fleet.complete()).isFalse();
			assertThat(fleet.problem()).contains("hanging").contains("did not answer within 200 ms")
				.contains("management.endpoint.uid.fleet-timeout");
			assertThat(fleet.workerId()).isEqualTo(WORKER);
			ParsedUid parsed = parsed(endpoint.parse("parse", Long.toString(generator.getUID())));
			assertThat(parsed.workerId()).isEqualTo(WORKER);
			assertThat(parsed.issuedBy().note()).contains("did not answer within 200 ms");
		}
		finally {
			never.countDown();
		}
	}

	/**
	 * Two requests whose readings hang in the store hold both reader threads; a third is answered at once, without a
	 * third thread. The two are made to hang for sure (they wait long, and the test waits until both are inside the
	 * store) rather than hoped to have started before a short timeout.
	 */
	@Test
	void readingsThatHangAreNotPiledUp() throws Exception {
		CountDownLatch answer = new CountDownLatch(1);
		HangingStore store = new HangingStore(answer);
		ExecutorService requests = Executors.newFixedThreadPool(2);
		try (DefaultUidGenerator generator = generator(new FixedWorkerIdAssigner(WORKER));
				UidEndpoint endpoint = new UidEndpoint(generator, null, null, false, UidClock.SYSTEM,
						new UidEndpoint.Stores(store, null, Duration.ofMinutes(2), "instance-a"))) {
			Future<FleetDescriptor> first = requests.submit(endpoint::fleet);
			Future<FleetDescriptor> second = requests.submit(endpoint::fleet);
			await().atMost(Duration.ofSeconds(30)).until(() -> store.readersWaiting() == 2);
			FleetDescriptor third = endpoint.fleet();
			assertThat(third.complete()).isFalse();
			assertThat(third.problem()).contains("two earlier readings have not finished");
			assertThat(store.readersWaiting()).as("no third reader was started").isEqualTo(2);
			answer.countDown();
			assertThat(first.get(30, TimeUnit.SECONDS).complete()).isTrue();
			assertThat(second.get(30, TimeUnit.SECONDS).complete()).isTrue();
		}
		finally {
			answer.countDown();
			requests.shutdownNow();
		}
	}

	@Test
	void anIdOfAnotherDataCenterIsNotPinnedOnThisStore() {
		RecordedStore store = new RecordedStore();
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.layout(UidLayout.defaults().withDatacenterBits(2))
			.datacenterId(1)
			.workerIdAssigner(store)
			.build(); UidEndpoint endpoint = endpoint(generator, store)) {
			long otherCenter = generator.status().layout().compose(units(generator, CLAIMED.toEpochMilli() + 5), 2, WORKER, 0);
			IssuedBy issuedBy = parsed(endpoint.parse("parse", Long.toString(otherCenter))).issuedBy();
			assertThat(issuedBy.instanceId()).isNull();
			assertThat(issuedBy.note()).contains("data center 2").contains("serves data center 1");
			assertThat(endpoint.fleet().datacenterId()).isEqualTo(1);
			assertThat(endpoint.fleet().workers().list()).extracting(FleetDescriptor.WorkerDescriptor::datacenterId)
				.containsOnly(1L);
		}
	}

	@Test
	void anUnknownOperationNamesBoth() {
		try (DefaultUidGenerator generator = generator(new FixedWorkerIdAssigner(WORKER));
				UidEndpoint endpoint = endpoint(generator, new FixedWorkerIdAssigner(WORKER))) {
			WebEndpointResponse<Object> response = endpoint.parse("fleets", null);
			assertThat(response.getStatus()).isEqualTo(404);
			assertThat(((UidEndpoint.ErrorDescriptor) response.getBody()).message()).contains("/actuator/uid/fleet")
				.contains("/actuator/uid/parse");
		}
	}

	private static IssuedBy issuedBy(UidEndpoint endpoint, DefaultUidGenerator generator, long millis) {
		long id = generator.status().layout().compose(units(generator, millis), 0, WORKER, 1);
		ParsedUid parsed = parsed(endpoint.parse("parse", Long.toString(id)));
		assertThat(Instant.parse(parsed.timestamp()).toEpochMilli()).isEqualTo(millis);
		return parsed.issuedBy();
	}

	/** Milliseconds of the default layout's unit since its epoch. */
	private static long units(DefaultUidGenerator generator, long millis) {
		return millis - generator.status().layout().getEpochInstant().toEpochMilli();
	}

	private static ParsedUid parsed(WebEndpointResponse<Object> response) {
		assertThat(response.getStatus()).as("%s", response.getBody()).isEqualTo(200);
		return (ParsedUid) response.getBody();
	}

	private static DefaultUidGenerator generator(WorkerIdAssigner assigner) {
		return DefaultUidGenerator.builder().workerIdAssigner(assigner).build();
	}

	private static UidEndpoint endpoint(DefaultUidGenerator generator, WorkerIdAssigner assigner) {
		return new UidEndpoint(generator, null, null, false, UidClock.SYSTEM,
				new UidEndpoint.Stores(assigner, null, Duration.ofSeconds(5), "instance-a"));
	}

	/** An assigner of one's own whose store records three worker IDs and a hand-over of worker 7. */
	private static final class RecordedStore extends FixedWorkerIdAssigner implements WorkerFleet {

		RecordedStore() {
			super(WORKER);
		}

		@Override
		public Optional<WorkerFleet> fleet() {
			return Optional.of(this);
		}

		@Override
		public String name() {
			return "recorded";
		}

		@Override
		public FleetSnapshot read(int maxWorkers) {
			return new FleetSnapshot("recorded", "memory", 2, 3, List.of(
					new FleetWorker(3, WorkerState.HELD, "instance-b", "host-b", CLAIMED, CLAIMED.plusSeconds(30),
							WorkerAssignment.NO_MARK),
					new FleetWorker(WORKER, WorkerState.HELD, "instance-a", "host-a", CLAIMED, CLAIMED.plusSeconds(30),
							CLAIMED.toEpochMilli() + 2_000),
					new FleetWorker(9, WorkerState.RELEASED, "instance-c", "host-c", CLAIMED.minusSeconds(7200),
							CLAIMED.minusSeconds(3600), CLAIMED.minusSeconds(3600).toEpochMilli())));
		}

		@Override
		public ClaimHistory history(long workerId) {
			if (workerId != WORKER) {
				return new ClaimHistory(workerId, List.of());
			}
			return new ClaimHistory(workerId, List.of(
					new WorkerClaim(WORKER, "instance-a", "host-a", CLAIMED, null, CLAIMED.toEpochMilli(),
							ClaimEnd.OPEN),
					new WorkerClaim(WORKER, "instance-old", "host-old", CLAIMED.minusSeconds(600), CLAIMED,
							CLAIMED.minusSeconds(600).toEpochMilli(), ClaimEnd.RELEASED)));
		}

	}

	/** An assigner whose store does not answer a reading until the test lets it. */
	private static final class HangingStore extends FixedWorkerIdAssigner implements WorkerFleet {

		private final CountDownLatch answer;

		private final AtomicInteger waiting = new AtomicInteger();

		HangingStore(CountDownLatch answer) {
			super(WORKER);
			this.answer = answer;
		}

		int readersWaiting() {
			return this.waiting.get();
		}

		@Override
		public Optional<WorkerFleet> fleet() {
			return Optional.of(this);
		}

		@Override
		public String name() {
			return "hanging";
		}

		@Override
		public FleetSnapshot read(int maxWorkers) {
			hang();
			return new FleetSnapshot("hanging", "nowhere", 0, 0, List.of());
		}

		@Override
		public ClaimHistory history(long workerId) {
			hang();
			return new ClaimHistory(workerId, List.of());
		}

		/** Waits for the answer, deaf to interrupts, as a read stuck on a socket is. */
		private void hang() {
			this.waiting.incrementAndGet();
			boolean interrupted = false;
			try {
				while (this.answer.getCount() > 0) {
					try {
						this.answer.await();
					}
					catch (InterruptedException ex) {
						interrupted = true;
					}
				}
			}
			finally {
				this.waiting.decrementAndGet();
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
