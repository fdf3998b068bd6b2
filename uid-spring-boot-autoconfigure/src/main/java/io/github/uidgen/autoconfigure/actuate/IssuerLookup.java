package io.github.uidgen.autoconfigure.actuate;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.HostEnvironment;
import org.jspecify.annotations.Nullable;

/**
 * Tells which instance issued an ID, for {@code parse}: the claim of its worker ID that the store's history names for
 * the ID's time (by the marks, not by wall-clock times), or why it cannot say. A store that does not answer leaves the
 * rest of the decoding as it is.
 */
final class IssuerLookup {

	private final UidFleetReader reader;

	private final UidGeneratorStatus.@Nullable Worker self;

	IssuerLookup(UidFleetReader reader, UidGeneratorStatus.@Nullable Worker self) {
		this.reader = reader;
		this.self = self;
	}

	IssuedBy issuerOf(DecodedUid decoded) {
		long workerId = decoded.workerId();
		if (this.self != null && !Objects.equals(decoded.datacenterId(), this.self.datacenterId())) {
			return IssuedBy.unknown("Issued in data center " + decoded.datacenterId() + "; this instance's store "
					+ "serves data center " + this.self.datacenterId() + " only: ask an instance there");
		}
		Optional<WorkerFleet> fleet = this.reader.workerFleet();
		if (fleet.isEmpty()) {
			if (this.self != null && this.self.id() == workerId) {
				return new IssuedBy(this.reader.selfInstanceId(), HostEnvironment.current().hostName(), null, null,
						null, "This instance's configured worker ID; the " + this.self.assigner()
								+ " assigner keeps no shared record, so an earlier holder cannot be told");
			}
			return IssuedBy.unknown("The " + this.reader.assignerName() + " assigner keeps no shared record of who "
					+ "holds worker " + workerId + ": ask the instance configured with it");
		}
		UidFleetReader.Answer<ClaimHistory> answer = this.reader.history(fleet.get(), workerId);
		ClaimHistory history = answer.value();
		if (history == null) {
			return IssuedBy.unknown("The " + this.reader.assignerName() + " worker-ID store: " + answer.problem());
		}
		Optional<WorkerClaim> issuer = history.issuerAt(decoded.timestamp().toEpochMilli());
		if (issuer.isPresent()) {
			WorkerClaim claim = issuer.get();
			return new IssuedBy(claim.instanceId(), claim.host(), claim.from().toString(),
					(claim.to() != null) ? claim.to().toString() : null, claim.end().name(), null);
		}
		if (history.claims().isEmpty()) {
			return IssuedBy.unknown("The store has no claim of worker " + workerId + " on record: it keeps claims from "
					+ "the first one made by a version that records them");
		}
		WorkerClaim oldest = history.oldest().get();
		return IssuedBy.unknown("The store's history of worker " + workerId + " no longer reaches back so far: its "
				+ "oldest claim kept, by " + oldest.instanceId() + " at " + oldest.from() + ", issued only after "
				+ mark(oldest.afterMarkMillis()) + ", and this ID is of " + decoded.timestamp() + ". It has "
				+ history.claims().size() + " claims of worker " + workerId + " on record: older ones were pruned "
				+ "(uid.worker.claim-history keeps the newest, 256 by default) or lost with the store's data (a flush, "
				+ "a restart without persistence, a restore from an older backup)");
	}

	private static String mark(long millis) {
		return (millis == WorkerAssignment.NO_MARK) ? "its first ID" : Instant.ofEpochMilli(millis).toString();
	}

	/**
	 * The instance that held the ID's worker ID when the ID was issued.
	 *
	 * @param instanceId the instance, or {@code null} when it cannot be told
	 * @param host the host or pod it ran on
	 * @param heldFrom when its claim began, ISO-8601
	 * @param heldUntil when its claim ended, ISO-8601; {@code null} while it holds the worker ID
	 * @param claimEnd {@code OPEN}, {@code RELEASED} or {@code EXPIRED}
	 * @param note why the instance cannot be told, or what to know about the answer
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record IssuedBy(@Nullable String instanceId, @Nullable String host, @Nullable String heldFrom,
			@Nullable String heldUntil, @Nullable String claimEnd, @Nullable String note) {

		static IssuedBy unknown(String why) {
			return new IssuedBy(null, null, null, null, null, why);
		}

	}

}
