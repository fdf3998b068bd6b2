package io.github.uidgen.autoconfigure.actuate;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.segment.StoredKey;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerState;
import io.github.uidgen.worker.support.HostEnvironment;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The fleet, as {@code GET /actuator/uid/fleet} shows it: every worker ID of the store this instance claims from, or
 * every key of its segment store, read from the store itself rather than from this instance.
 *
 * @param complete whether every store answered; when not, {@code problem} says which did not and why, and the rest
 * is what could be read
 * @param problem why the answer is partial, or {@code null}
 * @param workerId this instance's worker ID, {@code null} without one (segment)
 * @param datacenterId this instance's data center, {@code null} without data-center bits; one store serves one data
 * center, so every worker listed is of this data center
 * @param workers the worker IDs, or {@code null} when the generator has none or the store did not answer
 * @param segmentKeys the keys of the segment store, or {@code null} without one or when it did not answer
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record FleetDescriptor(boolean complete, @Nullable String problem, @Nullable Long workerId,
		@Nullable Long datacenterId, @Nullable Workers workers, @Nullable Keys segmentKeys)
		implements OperationResponseBody {

	/**
	 * The worker IDs a store knows.
	 *
	 * @param store the kind of store ({@code db}, {@code redis}, {@code zookeeper}, …; {@code static} for a
	 * configured worker ID, which knows only this instance)
	 * @param location where in the store the worker IDs live
	 * @param space worker IDs the layout has (in each data center)
	 * @param held worker IDs held now
	 * @param heldPercent held against the space, in percent
	 * @param known worker IDs the store has a record of (held, released or expired)
	 * @param truncated whether the list stops short of every known worker ID (it shows the lowest)
	 * @param list the worker IDs, lowest first
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record Workers(String store, String location, @Nullable Long space, long held,
			@Nullable Double heldPercent, long known, boolean truncated, List<WorkerDescriptor> list) {

		static Workers of(FleetSnapshot snapshot, @Nullable Long space, @Nullable Long datacenterId,
				UidGeneratorStatus.@Nullable Worker self) {
			List<WorkerDescriptor> list = snapshot.workers()
				.stream()
				.map((worker) -> WorkerDescriptor.of(worker, datacenterId, self))
				.toList();
			return new Workers(snapshot.store(), snapshot.location(), space, snapshot.held(),
					percent(snapshot.held(), space), snapshot.known(), snapshot.truncated(), list);
		}

		/** A store that keeps no shared record (a configured worker ID): the instance answers with itself. */
		static Workers ofItself(UidGeneratorStatus.Worker self, @Nullable Long space,
				@Nullable WorkerIdAssigner assigner, String instanceId) {
			WorkerDescriptor itself = new WorkerDescriptor(self.id(), self.datacenterId(), "HELD", instanceId,
					HostEnvironment.current().hostName(), null, null,
					UidFleetReader.iso(self.highWaterMark()), true);
			String name = (assigner != null) ? assigner.name() : self.assigner();
			return new Workers(name, "this instance only: the " + name + " assigner keeps no shared record", space,
					1, percent(1, space), 1, false, List.of(itself));
		}

		private static @Nullable Double percent(long held, @Nullable Long space) {
			return (space != null && space > 0) ? Math.round(held * 10_000.0 / space) / 100.0 : null;
		}

	}

	/**
	 * One worker ID.
	 *
	 * @param workerId the worker ID
	 * @param datacenterId the data center, {@code null} without data-center bits
	 * @param state {@code HELD}, {@code RELEASED} or {@code EXPIRED}
	 * @param instanceId the instance that holds it, or held it last
	 * @param host the host or pod it ran on
	 * @param heldSince when it was claimed, ISO-8601
	 * @param leaseExpiry when its lease runs (or ran) out unless renewed, ISO-8601
	 * @param highWaterMark the latest time it may have issued IDs for, ISO-8601; {@code null} if it never issued any
	 * @param self whether it is this instance's worker ID
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record WorkerDescriptor(long workerId, @Nullable Long datacenterId, String state,
			@Nullable String instanceId, @Nullable String host, @Nullable String heldSince,
			@Nullable String leaseExpiry, @Nullable String highWaterMark, boolean self) {

		static WorkerDescriptor of(FleetWorker worker, @Nullable Long datacenterId,
				UidGeneratorStatus.@Nullable Worker self) {
			return new WorkerDescriptor(worker.workerId(), datacenterId, worker.state().name(), worker.instanceId(),
					worker.host(), UidFleetReader.iso(worker.heldSince()), UidFleetReader.iso(worker.leaseExpiry()),
					worker.hasMark() ? Instant.ofEpochMilli(worker.highWaterMarkMillis()).toString() : null,
					self != null && self.id() == worker.workerId() && worker.state() == WorkerState.HELD);
		}

	}

	/**
	 * The keys of a segment store.
	 *
	 * @param store the kind of store ({@code db}, {@code leaf} (Leaf's {@code leaf_alloc}), {@code redis})
	 * @param location where in the store the keys live
	 * @param count how many keys it holds
	 * @param truncated whether the list stops short of every key (it shows the first in key order)
	 * @param list the keys, in key order
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record Keys(String store, String location, long count, boolean truncated, List<KeyDescriptor> list) {

		static Keys of(StoredKeys keys) {
			return new Keys(keys.store(), keys.location(), keys.count(), keys.truncated(),
					keys.keys().stream().map(KeyDescriptor::of).toList());
		}

	}

	/**
	 * One key of a segment store.
	 *
	 * @param key the key (Leaf's {@code biz_tag})
	 * @param maxId the last number of the latest segment handed out to any instance
	 * @param step numbers a claim takes, when the store keeps one (Leaf's {@code step}); {@code null} otherwise
	 * @param lastClaim when the counter last moved, ISO-8601, when the store says
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record KeyDescriptor(String key, long maxId, @Nullable Long step, @Nullable String lastClaim) {

		static KeyDescriptor of(StoredKey key) {
			return new KeyDescriptor(key.key(), key.maxId(), key.step(), UidFleetReader.iso(key.lastClaim()));
		}

	}

}
