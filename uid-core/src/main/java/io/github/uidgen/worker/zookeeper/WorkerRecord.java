package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.github.uidgen.worker.WorkerAssignment;

/**
 * What the znode of one worker ID holds: who claimed it last, the token of the current claim (empty once released),
 * the lease duration that claimant runs with, and the worker's high-water mark. Written as a few {@code key=value}
 * lines so an operator can read it with {@code zkCli.sh get}.
 *
 * @param instanceId the instance that claimed the worker ID last
 * @param token the token of the current claim, empty when the worker ID was released
 * @param leaseMillis how long the claimant's lease lasts after each write to the znode
 * @param markMillis the high-water mark, {@link WorkerAssignment#NO_MARK} for a worker ID that never issued an ID
 * @param host the host the claimant ran on, empty when not recorded
 * @param sinceMillis when the claim was made, by the ensemble's clock; -1 when not recorded
 */
record WorkerRecord(String instanceId, String token, long leaseMillis, long markMillis, String host,
		long sinceMillis) {

	private static final String FORMAT = "1";

	/** A record without host and claim time, as earlier versions wrote it. */
	WorkerRecord(String instanceId, String token, long leaseMillis, long markMillis) {
		this(instanceId, token, leaseMillis, markMillis, "", -1);
	}

	/**
	 * Returns whether a claim holds the worker ID (it may have expired).
	 * @return whether there is a token
	 */
	boolean leased() {
		return !this.token.isEmpty();
	}

	/**
	 * Returns the record with a mark at least as high as both this one's and the given one.
	 * @param mark a new mark, or {@link WorkerAssignment#NO_MARK}
	 * @return the record with the higher mark
	 */
	WorkerRecord withMarkAtLeast(long mark) {
		return (mark > this.markMillis)
				? new WorkerRecord(this.instanceId, this.token, this.leaseMillis, mark, this.host, this.sinceMillis)
				: this;
	}

	/**
	 * Returns the record of a released worker ID: no token, the mark kept.
	 * @return the released record
	 */
	WorkerRecord released() {
		return new WorkerRecord(this.instanceId, "", this.leaseMillis, this.markMillis, this.host, this.sinceMillis);
	}

	byte[] encode() {
		String mark = (this.markMillis == WorkerAssignment.NO_MARK) ? "" : Long.toString(this.markMillis);
		return ("format=" + FORMAT + "\ninstance=" + this.instanceId + "\ntoken=" + this.token + "\nlease="
				+ this.leaseMillis + "\nmark=" + mark + "\n" + (this.host.isEmpty() ? "" : "host=" + this.host + "\n")
				+ ((this.sinceMillis < 0) ? "" : "since=" + this.sinceMillis + "\n")).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads a record written by {@link #encode()}.
	 * @param data the znode's data
	 * @return the record
	 * @throws IllegalArgumentException when the data is not such a record
	 */
	static WorkerRecord decode(byte[] data) {
		if (data == null) {
			throw new IllegalArgumentException("no data");
		}
		Map<String, String> fields = new HashMap<>();
		for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
			int equals = line.indexOf('=');
			if (equals > 0) {
				fields.put(line.substring(0, equals), line.substring(equals + 1));
			}
		}
		if (!FORMAT.equals(fields.get("format"))) {
			throw new IllegalArgumentException("format '" + fields.get("format") + "', expected " + FORMAT);
		}
		String instance = require(fields, "instance");
		String token = require(fields, "token");
		String mark = require(fields, "mark");
		String since = fields.getOrDefault("since", "");
		try {
			return new WorkerRecord(instance, token, Long.parseLong(require(fields, "lease")),
					mark.isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(mark), fields.getOrDefault("host", ""),
					since.isEmpty() ? -1 : Long.parseLong(since));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("lease, mark or since is not a number: " + fields, ex);
		}
	}

	private static String require(Map<String, String> fields, String key) {
		String value = fields.get(key);
		if (value == null) {
			throw new IllegalArgumentException("no '" + key + "' line");
		}
		return value;
	}

}
