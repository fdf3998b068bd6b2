package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.WorkerFleet;
import org.jspecify.annotations.Nullable;

/**
 * Reads the shared stores for the {@code uid} endpoint ({@code fleet}, and {@code issuedBy} of {@code parse}) off the
 * request thread and within a bound: a store that does not answer in time, or fails, gives a partial answer that
 * says so, and never more than two reads run at once, so a hung store cannot pile up threads. Nothing here is on the
 * path that issues IDs.
 */
final class UidFleetReader implements AutoCloseable {

	/** How many worker IDs, and segment keys, the fleet lists at most; the counts cover all of them. */
	static final int MAX_LISTED = 1_000;

	private final UidGenerator generator;

	private final @Nullable WorkerIdAssigner assigner;

	private final @Nullable SegmentStore segmentStore;

	private final Duration timeout;

	private final String selfInstanceId;

	private final ThreadPoolExecutor readers;

	UidFleetReader(UidGenerator generator, @Nullable WorkerIdAssigner assigner, @Nullable SegmentStore segmentStore,
			Duration timeout, String selfInstanceId) {
		this.generator = generator;
		this.selfInstanceId = selfInstanceId;
		this.assigner = assigner;
		this.segmentStore = segmentStore;
		this.timeout = timeout;
		this.readers = new ThreadPoolExecutor(0, 2, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
			Thread thread = new Thread(task, "uid-fleet-reader");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** The generator's worker-ID store, when its assigner offers a reading of it. */
	Optional<WorkerFleet> workerFleet() {
		return (this.assigner != null) ? this.assigner.fleet() : Optional.empty();
	}

	/** The name of the assigner, or {@code null} for a generator without worker IDs (segment). */
	@Nullable String assignerName() {
		return (this.assigner != null) ? this.assigner.name() : null;
	}

	/** This instance's ID, as the lease assigners would claim under it. */
	String selfInstanceId() {
		return this.selfInstanceId;
	}

	/** Reads a worker ID's claims, or says why not. */
	Answer<ClaimHistory> history(WorkerFleet fleet, long workerId) {
		return within(() -> fleet.history(workerId));
	}

	/**
	 * Reads the whole fleet: the worker IDs of the store this instance claims from, or the keys of its segment store,
	 * and the instance itself.
	 */
	FleetDescriptor read() {
		UidGeneratorStatus status = this.generator.status();
		UidGeneratorStatus.Worker self = status.worker();
		UidLayout layout = status.layout();
		Long datacenterId = (self != null) ? self.datacenterId() : null;
		Long space = (layout != null) ? layout.getMaxWorkerId() + 1 : null;
		FleetDescriptor.Workers workers = null;
		String problem = null;
		Optional<WorkerFleet> fleet = workerFleet();
		if (fleet.isPresent()) {
			Answer<FleetSnapshot> snapshot = within(() -> fleet.get().read(MAX_LISTED));
			if (snapshot.value() != null) {
				workers = FleetDescriptor.Workers.of(snapshot.value(), space, datacenterId, self);
			}
			else {
				problem = "The " + this.assigner.name() + " worker-ID store: " + snapshot.problem();
			}
		}
		else if (self != null) {
			workers = FleetDescriptor.Workers.ofItself(self, space, this.assigner, this.selfInstanceId);
		}
		FleetDescriptor.Keys keys = null;
		if (this.segmentStore != null) {
			Answer<Optional<StoredKeys>> stored = within(() -> this.segmentStore.readKeys(MAX_LISTED));
			if (stored.value() != null && stored.value().isPresent()) {
				keys = FleetDescriptor.Keys.of(stored.value().get());
			}
			else {
				String why = (stored.value() != null) ? "it offers no reading of its keys" : stored.problem();
				problem = ((problem != null) ? problem + "; " : "") + "The " + this.segmentStore.name()
						+ " segment store: " + why;
			}
		}
		return new FleetDescriptor(problem == null, problem, (self != null) ? self.id() : null, datacenterId, workers,
				keys);
	}

	/** Runs a read on a reader thread and waits for it at most {@link #timeout}. */
	private <T> Answer<T> within(Callable<T> read) {
		Future<T> future;
		try {
			future = this.readers.submit(read);
		}
		catch (RejectedExecutionException ex) {
			return Answer.failed("two earlier readings have not finished yet (the store is slow to answer); ask "
					+ "again shortly");
		}
		try {
			return new Answer<>(future.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS), null);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			return Answer.failed("it did not answer within " + this.timeout.toMillis() + " ms "
					+ "(management.endpoint.uid.fleet-timeout)");
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			return Answer.failed("it could not be read: " + cause.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			future.cancel(true);
			return Answer.failed("the reading was interrupted");
		}
	}

	@Override
	public void close() {
		this.readers.shutdownNow();
	}

	/** What a read came to: the value, or why there is none. */
	record Answer<T>(@Nullable T value, @Nullable String problem) {

		static <T> Answer<T> failed(String problem) {
			return new Answer<>(null, problem);
		}

	}

	static @Nullable String iso(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

}
