package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.support.HostEnvironment;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code uid} actuator endpoint: {@code GET /actuator/uid} describes the running generator and
 * {@code GET /actuator/uid/parse?uid=<id>} decodes an ID (an opaque text only when
 * {@code management.endpoint.uid.parse-opaque} is on) and names the instance that issued it;
 * {@code GET /actuator/uid/fleet} lists every worker ID (or segment key) of the store this instance uses. Bad input answers 400 with a message, never 500, and so
 * does an ID of the segment generator, which has nothing in it to decode. With the segment generator, the
 * description also lists every key in use.
 *
 * <p>Its answers are {@link OperationResponseBody}s, so the actuator writes them with its own JSON mapper: the
 * application's settings (such as {@code uid.jackson.write-longs-as-strings}) do not change them. They keep their
 * {@code null} fields, which tell a reader what the generator does not have (a ring, a segment).
 */
@Endpoint(id = "uid")
public class UidEndpoint implements AutoCloseable {

	/** The operation that decodes an ID. */
	static final String PARSE = "parse";

	/** The operation that lists the fleet. */
	static final String FLEET = "fleet";

	/** How long {@code fleet} and {@code issuedBy} wait for a store by default. */
	public static final Duration DEFAULT_FLEET_TIMEOUT = Duration.ofSeconds(3);

	/** The setting that bounds how long {@code fleet} and {@code issuedBy} wait for a store. */
	public static final String FLEET_TIMEOUT = "management.endpoint.uid.fleet-timeout";

	/** The setting that lets {@code parse} decode opaque texts. */
	public static final String PARSE_OPAQUE = "management.endpoint.uid.parse-opaque";

	private final UidGenerator generator;

	private final @Nullable SegmentUidGenerators segmentGenerators;

	private final UidIdParser parser;

	private final UidFleetReader fleetReader;

	private final UidClock clock;

	public UidEndpoint(UidGenerator generator) {
		this(generator, null);
	}

	public UidEndpoint(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators) {
		this(generator, segmentGenerators, null);
	}

	/**
	 * Creates the endpoint of the application's generator, the generators of every segment key and the text forms
	 * of its IDs.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 * @param formats the text forms {@code parse} reads besides decimal, or {@code null} for decimal only
	 */
	public UidEndpoint(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators,
			@Nullable UidFormats formats) {
		this(generator, segmentGenerators, formats, false);
	}

	/**
	 * Creates the endpoint, saying whether it decodes opaque texts.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 * @param formats the text forms {@code parse} reads besides decimal, or {@code null} for decimal only
	 * @param parseOpaque whether {@code parse} decodes opaque texts ({@code management.endpoint.uid.parse-opaque}):
	 * off unless only operators reach the endpoint, because the key is what keeps an opaque ID's time and worker
	 * from whoever holds its text
	 */
	public UidEndpoint(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators,
			@Nullable UidFormats formats, boolean parseOpaque) {
		this(generator, segmentGenerators, formats, parseOpaque, UidClock.SYSTEM);
	}

	/**
	 * Creates the endpoint, with the clock the layout's remaining time is read from.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 * @param formats the text forms {@code parse} reads besides decimal, or {@code null} for decimal only
	 * @param parseOpaque whether {@code parse} decodes opaque texts
	 * @param clock the clock the layout's expiry is compared with
	 */
	public UidEndpoint(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators,
			@Nullable UidFormats formats, boolean parseOpaque, UidClock clock) {
		this(generator, segmentGenerators, formats, parseOpaque, clock, new Stores(null, null, DEFAULT_FLEET_TIMEOUT,
				HostEnvironment.current().defaultInstanceId(null)));
	}

	/**
	 * Creates the endpoint, with the stores {@code fleet} and {@code issuedBy} read.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 * @param formats the text forms {@code parse} reads besides decimal, or {@code null} for decimal only
	 * @param parseOpaque whether {@code parse} decodes opaque texts
	 * @param clock the clock the layout's expiry is compared with
	 * @param stores the worker-ID assigner and segment store the application uses, and how long a reading may take
	 */
	public UidEndpoint(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators,
			@Nullable UidFormats formats, boolean parseOpaque, UidClock clock, Stores stores) {
		this.generator = generator;
		this.segmentGenerators = segmentGenerators;
		this.fleetReader = new UidFleetReader(generator, stores.assigner(), stores.segmentStore(),
				stores.fleetTimeout(), stores.instanceId());
		this.parser = new UidIdParser(generator, formats, parseOpaque, this.fleetReader);
		this.clock = clock;
	}

	/** The epoch as configured: a date, or the instant of a layout that continues another system's IDs. */
	private static String epoch(UidLayout layout) {
		Instant instant = layout.getEpochInstant();
		return instant.equals(layout.getEpoch().atStartOfDay(ZoneOffset.UTC).toInstant())
				? layout.getEpoch().toString() : instant.toString();
	}

	/**
	 * Describes the generator: its kind, layout, worker, high-water mark, lead over the clock, ring fill and what
	 * runs out (capacity); for the segment generator its segments and every key in use.
	 * @return the description
	 */
	@ReadOperation
	public UidDescriptor describe() {
		UidGeneratorStatus status = this.generator.status();
		UidLayout layout = status.layout();
		LayoutDescriptor layoutDescriptor = (layout != null) ? new LayoutDescriptor(
				layout.getTimeUnit().name().toLowerCase(Locale.ROOT), epoch(layout),
				layout.getTimeBits(), layout.getWorkerBits(), layout.getDatacenterBits(), layout.getSeqBits(),
				layout.getMaxDatacenterId(), layout.getMaxWorkerId(), layout.getMaxSequence() + 1,
				layout.getExpiry().toString()) : null;
		UidGeneratorStatus.Worker worker = status.worker();
		UidGeneratorStatus.Ring ring = status.ring();
		UidGeneratorStatus.Segment segment = status.segment();
		UidException failure = status.failure();
		return new UidDescriptor(status.kind(), layoutDescriptor, (worker != null) ? worker.datacenterId() : null,
				(worker != null) ? worker.id() : null,
				(worker != null) ? worker.assigner() : null,
				(worker != null && worker.highWaterMark() != null) ? worker.highWaterMark().toString() : null,
				(status.aheadOfClock() != null) ? status.aheadOfClock().toMillis() : null,
				(status.issued() >= 0) ? status.issued() : null,
				(ring != null) ? new RingDescriptor(ring.capacity(), ring.size(), ring.fillPercent(),
						ring.putRejections(), ring.takeRejections(), ring.fillErrors()) : null,
				(segment != null) ? new SegmentDescriptor(segment.key(), segment.step(), segment.remaining(),
						segment.segmentsFetched(), segment.storeFailures()) : null,
				(failure != null) ? failure.getMessage() : null, segmentKeys(),
				(worker != null) ? worker.switches() : null, (worker != null) ? worker.previousId() : null,
				(worker != null) ? worker.recoveries() : null, capacity(status));
	}

	/** What runs out, for a generator with a layout: its time, its worker IDs, the sequence of a unit. */
	private @Nullable CapacityDescriptor capacity(UidGeneratorStatus status) {
		UidLayout layout = status.layout();
		if (layout == null) {
			return null;
		}
		long remainingMillis = Math.max(0, layout.getExpiry().toEpochMilli() - this.clock.currentTimeMillis());
		long idsPerSecond = (layout.getMaxSequence() + 1) * 1000 / layout.getTimeUnit().toMillis();
		return new CapacityDescriptor(remainingMillis / 1000, remainingMillis / 86_400_000L / 365,
				layout.getMaxWorkerId() + 1, layout.getMaxDatacenterId() + 1, idsPerSecond,
				(status.exhaustedUnits() >= 0) ? status.exhaustedUnits() : null);
	}

	/** Every segment key in use, in key order; {@code null} without the segment generator. */
	private @Nullable List<SegmentKeyDescriptor> segmentKeys() {
		if (this.segmentGenerators == null) {
			return null;
		}
		return this.segmentGenerators.generators()
			.values()
			.stream()
			.sorted(Comparator.comparing(SegmentUidGenerator::getKey))
			.map(UidEndpoint::describeKey)
			.toList();
	}

	private static SegmentKeyDescriptor describeKey(SegmentUidGenerator generator) {
		UidGeneratorStatus status = generator.status();
		UidGeneratorStatus.Segment segment = status.segment();
		UidException failure = status.failure();
		return new SegmentKeyDescriptor(segment.key(), status.issued(), segment.step(), segment.remaining(),
				segment.segmentsFetched(), segment.storeFailures(), (failure != null) ? failure.getMessage() : null);
	}

	/**
	 * Decodes an ID of this generator's layout, given as text of any of the application's forms.
	 * @param operation the path segment after the endpoint: {@code parse}, or {@code fleet} (which takes no parameter)
	 * @param uid the ID as text: of {@code form} when given; otherwise of the default form ({@code uid.text.form}) or
	 * decimal
	 * @param form the name of the text form ({@code decimal}, {@code radix62}, {@code radix36}, {@code readable},
	 * {@code opaque}), or {@code null}
	 * @return 200 with the parts of the ID, the form it was read in and the instance that issued it ({@code issuedBy},
	 * from the worker-ID store's claim history); for the operation {@code fleet}, the fleet; 400 with a message for a missing, malformed,
	 * negative or out-of-range ID, an unknown form, and for any ID of the segment generator (a plain number, without
	 * time or worker); 403 for the opaque form unless {@link #PARSE_OPAQUE} is on (and the default form, when it is
	 * opaque, is then not tried); 404 for another operation
	 */
	@ReadOperation
	public WebEndpointResponse<Object> parse(@Selector String operation, @Nullable String uid,
			@Nullable String form) {
		if (FLEET.equals(operation)) {
			return new WebEndpointResponse<>(fleet());
		}
		return this.parser.parse(operation, uid, form);
	}

	/**
	 * Answers a path more than one segment below the endpoint, such as {@code /actuator/uid/parse/<ID>}, as an unknown
	 * operation: 404 with a pointer to {@code parse?uid=} and {@code fleet}, instead of the web layer's bare 404.
	 * @param operation the first path segment after the endpoint
	 * @param more the segments after it
	 * @return 404 with a message
	 */
	@ReadOperation
	public WebEndpointResponse<Object> unknownPath(@Selector String operation,
			@Selector(match = Selector.Match.ALL_REMAINING) String[] more) {
		return this.parser.parse(operation + "/" + String.join("/", more), null, null);
	}

	/**
	 * Lists the fleet ({@code GET /actuator/uid/fleet}), read from the stores this instance uses: every worker ID
	 * with its holder, state, lease and mark and how much of the worker-ID space is held, or every key of the segment
	 * store with its counter. A store that does not answer within {@link #FLEET_TIMEOUT} gives a partial answer that
	 * says so; a generator whose assigner keeps no shared record (a configured worker ID) answers with itself.
	 * @return the fleet
	 */
	public FleetDescriptor fleet() {
		return this.fleetReader.read();
	}

	/** Stops the threads that read the stores; the context calls it on shutdown. */
	@Override
	public void close() {
		this.fleetReader.close();
	}

	/**
	 * Decodes an ID given in the default form or in decimal, as {@code parse(operation, uid, null)}.
	 * @param operation the path segment after the endpoint, {@code parse}
	 * @param uid the ID as text
	 * @return as {@link #parse(String, String, String)}
	 */
	public WebEndpointResponse<Object> parse(String operation, @Nullable String uid) {
		return parse(operation, uid, null);
	}

	/**
	 * The running generator, as {@code GET /actuator/uid} shows it.
	 *
	 * @param generator {@code default}, {@code cached}, {@code segment}, or the kind an application's own generator reports (its
	 * simple class name unless it says otherwise)
	 * @param layout the ID layout, or {@code null} for a generator whose IDs have none
	 * @param datacenterId the data center the generator issues for, or {@code null} when the layout has no
	 * data-center bits
	 * @param workerId the worker ID (within the data center, with data-center bits)
	 * @param assigner the name of the worker-ID assigner
	 * @param highWaterMark the latest time the worker may issue IDs for before recording a new mark, ISO-8601
	 * @param aheadOfClockMillis how far the latest issued (cached: produced) ID lies ahead of the clock
	 * @param issued how many IDs were handed out
	 * @param ring the ring buffer of the cached generator
	 * @param segment the segments of the segment generator
	 * @param failure why no IDs can be issued, if that is so
	 * @param segmentKeys with the segment generator, every key in use ({@code uid.segment.key} and those asked for
	 * through {@code SegmentUidGenerators}), in key order
	 * @param workerSwitches how often the generator moved to another worker ID because the clock stepped back
	 * @param previousWorkerId the worker ID issued as before the latest move, while it is kept until the clock has
	 * passed its mark
	 * @param workerRecoveries how often the generator claimed a worker ID again by itself after a lost lease
	 * @param capacity what runs out, or {@code null} for a generator whose IDs have no layout
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record UidDescriptor(String generator, @Nullable LayoutDescriptor layout, @Nullable Long datacenterId,
			@Nullable Long workerId,
			@Nullable String assigner, @Nullable String highWaterMark, @Nullable Long aheadOfClockMillis,
			@Nullable Long issued, @Nullable RingDescriptor ring, @Nullable SegmentDescriptor segment,
			@Nullable String failure, @Nullable List<SegmentKeyDescriptor> segmentKeys, @Nullable Long workerSwitches,
			@Nullable Long previousWorkerId, @Nullable Long workerRecoveries,
			@Nullable CapacityDescriptor capacity) implements OperationResponseBody {
	}

	/**
	 * What runs out; the lead over the clock ({@code aheadOfClockMillis}) is the time borrowed.
	 *
	 * @param layoutRemainingSeconds seconds until the layout's expiry
	 * @param layoutRemainingYears whole years (of 365 days) until the layout's expiry
	 * @param workerIdSpace worker IDs the layout has, in each data center
	 * @param datacenterIdSpace data centers the layout has, 1 without data-center bits
	 * @param idsPerSecond IDs one worker can issue per second at most, the layout's ceiling
	 * @param sequenceExhaustedUnits time units whose sequence ran out, so that issue waited for the next one;
	 * {@code null} for a generator that does not count them (the cached generator borrows later units instead)
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record CapacityDescriptor(long layoutRemainingSeconds, long layoutRemainingYears, long workerIdSpace,
			long datacenterIdSpace, long idsPerSecond, @Nullable Long sequenceExhaustedUnits) {
	}

	/**
	 * The ID layout.
	 *
	 * @param timeUnit {@code milliseconds} or {@code seconds}
	 * @param epoch the date time counts from, UTC
	 * @param timeBits bits of the time part
	 * @param workerBits bits between time and sequence: the worker ID's, data-center bits included
	 * @param datacenterBits how many of the worker bits name a data center, 0 without data centers
	 * @param seqBits bits of the sequence
	 * @param maxDatacenterId the largest data-center ID, 0 without data centers
	 * @param maxWorkerId the largest worker ID (in each data center, with data-center bits)
	 * @param idsPerUnit IDs one worker can issue per time unit
	 * @param expiry the first instant the layout cannot encode, ISO-8601
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record LayoutDescriptor(String timeUnit, String epoch, int timeBits, int workerBits, int datacenterBits,
			int seqBits, long maxDatacenterId, long maxWorkerId, long idsPerUnit, String expiry) {
	}

	/**
	 * The cached generator's ring buffer.
	 *
	 * @param capacity slots
	 * @param size IDs waiting
	 * @param fillPercent size as a percentage of capacity
	 * @param putRejections puts that found the ring full
	 * @param takeRejections takes that found the ring empty
	 * @param fillErrors fills that failed and were retried
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record RingDescriptor(int capacity, int size, int fillPercent, long putRejections, long takeRejections,
			long fillErrors) {
	}

	/**
	 * The segments of a segment generator.
	 *
	 * @param key the business key whose numbers it hands out
	 * @param step numbers the next segment claims
	 * @param remaining claimed numbers left in memory (current and prefetched segment)
	 * @param segmentsFetched segments claimed from the store
	 * @param storeFailures claims from the store that failed
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record SegmentDescriptor(String key, long step, long remaining, long segmentsFetched, long storeFailures) {
	}

	/**
	 * One key of the segment generator.
	 *
	 * @param key the business key
	 * @param issued numbers handed out
	 * @param step numbers the next segment claims
	 * @param remaining claimed numbers left in memory
	 * @param segmentsFetched segments claimed from the store
	 * @param storeFailures claims from the store that failed
	 * @param failure why the key's generator cannot hand out numbers, if that is so
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record SegmentKeyDescriptor(String key, long issued, long step, long remaining, long segmentsFetched,
			long storeFailures, @Nullable String failure) {
	}

	/**
	 * A decoded ID.
	 *
	 * @param uid the ID, as a string so JavaScript clients keep every digit
	 * @param timestamp the start of the time unit it was issued in, ISO-8601
	 * @param datacenterId the data center that issued it, or {@code null} when the layout has no data-center bits
	 * @param workerId the worker that issued it (within its data center, with data-center bits)
	 * @param sequence its sequence in that worker and time unit
	 * @param form the text form the ID was read in
	 * @param issuedBy the instance that held the worker ID when the ID was issued, from the worker-ID store's claim
	 * history, or why that cannot be told
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ParsedUid(String uid, String timestamp, @Nullable Long datacenterId, long workerId,
			long sequence, String form, IssuerLookup.@Nullable IssuedBy issuedBy) implements OperationResponseBody {
	}

	/**
	 * The stores {@code fleet} and {@code issuedBy} read.
	 *
	 * @param assigner the application's worker-ID assigner, or {@code null} without one (segment)
	 * @param segmentStore the application's segment store, or {@code null} without one
	 * @param fleetTimeout how long a reading of a store may take ({@link #FLEET_TIMEOUT})
	 * @param instanceId this instance's ID, for an assigner that keeps no shared record
	 */
	public record Stores(@Nullable WorkerIdAssigner assigner, @Nullable SegmentStore segmentStore,
			Duration fleetTimeout, String instanceId) {
	}

	/**
	 * What a refused request answers.
	 *
	 * @param status the HTTP status
	 * @param error the reason phrase
	 * @param message what was wrong and how to call it instead
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ErrorDescriptor(int status, String error, String message) implements OperationResponseBody {
	}

}
