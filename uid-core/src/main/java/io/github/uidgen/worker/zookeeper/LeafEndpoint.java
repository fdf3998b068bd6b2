package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The data of a Leaf snowflake node: what Leaf's {@code SnowflakeZookeeperHolder.Endpoint} serialises with Jackson,
 * {@code {"ip":"10.0.0.7","port":"8080","timestamp":1700000000000}}. Written in exactly that shape (Leaf reads it back
 * with unknown properties refused), and read strictly: an object of these three fields and nothing else.
 *
 * @param ip the host's address as Leaf reports it
 * @param port the port, a string as Leaf writes it
 * @param timestamp the time of the report, epoch milliseconds
 */
record LeafEndpoint(String ip, String port, long timestamp) {

	/** A JSON member: a quoted name, then a quoted string or a number. */
	private static final Pattern MEMBER = Pattern
		.compile("\\s*\"([a-zA-Z]+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?[0-9]+)\\s*(,|$)");

	/**
	 * Returns the JSON Leaf writes.
	 * @return the node's data
	 */
	byte[] toJson() {
		return ("{\"ip\":\"" + this.ip + "\",\"port\":\"" + this.port + "\",\"timestamp\":" + this.timestamp + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads a node's data as Leaf's JSON.
	 * @param data the node's data
	 * @return the endpoint
	 * @throws IllegalArgumentException when the data is not Leaf's JSON
	 */
	static LeafEndpoint parse(byte[] data) {
		if (data == null) {
			throw new IllegalArgumentException("the node has no data");
		}
		String json = new String(data, StandardCharsets.UTF_8).strip();
		if (!json.startsWith("{") || !json.endsWith("}")) {
			throw new IllegalArgumentException("not a JSON object");
		}
		String body = json.substring(1, json.length() - 1);
		Map<String, String> members = new LinkedHashMap<>();
		Matcher matcher = MEMBER.matcher(body);
		int at = 0;
		while (at < body.length() && !body.substring(at).isBlank()) {
			if (!matcher.find(at) || matcher.start() != at) {
				throw new IllegalArgumentException("not a flat JSON object of strings and numbers");
			}
			String value = (matcher.group(3) != null) ? matcher.group(3) : matcher.group(2);
			if (members.put(matcher.group(1), value) != null) {
				throw new IllegalArgumentException("'" + matcher.group(1) + "' appears twice");
			}
			at = matcher.end();
		}
		if (!members.keySet().equals(Set.of("ip", "port", "timestamp"))) {
			throw new IllegalArgumentException("fields " + members.keySet() + " instead of Leaf's ip, port, timestamp");
		}
		try {
			return new LeafEndpoint(members.get("ip"), members.get("port"), Long.parseLong(members.get("timestamp")));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("timestamp '" + members.get("timestamp") + "' is not a number", ex);
		}
	}

	/**
	 * Returns the data as text, for messages.
	 * @param data the node's data
	 * @return at most 200 characters of it
	 */
	static String describe(byte[] data) {
		if (data == null) {
			return "(no data)";
		}
		String text = new String(data, StandardCharsets.UTF_8);
		return (text.length() > 200) ? text.substring(0, 200) + "…" : text;
	}

}
