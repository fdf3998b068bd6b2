package io.github.uidgen.samples.leaf;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.InvalidUidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.migration.LeafLayout;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Meituan Leaf's three URLs, answering as a Leaf server does, so that Leaf's clients need no change: an ID as plain
 * decimal text from {@code /api/segment/get/{key}} (the {@code leaf_alloc} row {@code key}) and
 * {@code /api/snowflake/get/{key}} (the key is ignored, as by Leaf), and {@code /decodeSnowflakeId?snowflakeId=} as
 * Leaf's map of strings. A failure is never a number: Leaf answers its negative error IDs with 500; this answers a
 * status that says what went wrong, with a problem detail ({@link LeafApiErrors}).
 */
@RestController
@ConditionalOnBooleanProperty("samples.leaf-api.enabled")
class LeafApiController {

	private final UidGenerator uidGenerator;

	private final ObjectProvider<SegmentUidGenerators> segmentGenerators;

	LeafApiController(UidGenerator uidGenerator, ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		this.uidGenerator = uidGenerator;
		this.segmentGenerators = segmentGenerators;
	}

	@RequestMapping("/api/segment/get/{key}")
	String segment(@PathVariable("key") String key) {
		SegmentUidGenerators generators = this.segmentGenerators.getIfAvailable();
		if (generators == null) {
			throw new LeafModeNotServedException("This ID service hands out no segment numbers: run it with "
					+ "uid.segment.enabled=true (or uid.generator=segment) and uid.segment.store=leaf.");
		}
		return Long.toString(generators.forKey(key).getUID());
	}

	@RequestMapping("/api/snowflake/get/{key}")
	String snowflake(@PathVariable("key") String key) {
		if (this.uidGenerator instanceof SegmentUidGenerator) {
			throw new LeafModeNotServedException("This ID service hands out segment numbers only: run it with "
					+ "uid.generator=default (or cached), uid.layout-preset=leaf and uid.worker.zookeeper.mode=leaf, "
					+ "and uid.segment.enabled=true for the segment numbers.");
		}
		return Long.toString(this.uidGenerator.getUID());
	}

	/**
	 * Decodes an ID as Leaf's {@code LeafMonitorController.decodeSnowflakeId} does: the time in milliseconds with
	 * the local date and time after it, the worker ID and the sequence, each a string. The layout is the ID
	 * service's own (Leaf's with {@code uid.layout-preset=leaf}), or Leaf's when it hands out segment numbers only.
	 */
	@RequestMapping("/decodeSnowflakeId")
	Map<String, String> decodeSnowflakeId(@RequestParam("snowflakeId") String snowflakeId) {
		long id;
		try {
			id = Long.parseLong(snowflakeId.strip());
		}
		catch (NumberFormatException ex) {
			throw new InvalidSnowflakeIdException(snowflakeId, "Parameter 'snowflakeId' must be a decimal ID, but was '"
					+ snowflakeId + "'.");
		}
		DecodedUid decoded;
		try {
			decoded = layout().decode(id);
		}
		catch (InvalidUidException ex) {
			throw new InvalidSnowflakeIdException(snowflakeId, ex.getMessage());
		}
		long millis = decoded.timestamp().toEpochMilli();
		Map<String, String> answer = new LinkedHashMap<>();
		answer.put("timestamp", millis + "(" + new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS").format(new Date(millis))
				+ ")");
		answer.put("sequenceId", Long.toString(decoded.sequence()));
		answer.put("workerId", Long.toString(decoded.workerId()));
		return answer;
	}

	private UidLayout layout() {
		return (this.uidGenerator instanceof SegmentUidGenerator) ? LeafLayout.layout() : this.uidGenerator.layout();
	}

}
