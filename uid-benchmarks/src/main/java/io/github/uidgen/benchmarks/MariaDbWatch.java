package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a MariaDB server did during one phase of the fleet simulation, to tell why a figure is what it is: the
 * deltas of its status counters (statements by kind, rows read, row lock waits, commits), the most sessions seen at
 * once in its process list by what they were doing (sampled as often as the phase asks: each sample reads every
 * session, which costs the server CPU of its own), and, when {@code performance_schema} is on
 * ({@code fleet --db-digests true}), the statements by digest with the rows each examined.
 */
final class MariaDbWatch implements AutoCloseable {

	/** The status counters whose growth over the phase is printed. */
	private static final List<String> COUNTERS = List.of("QUESTIONS", "COM_SELECT", "COM_INSERT", "COM_UPDATE",
			"COM_DELETE", "COM_COMMIT", "COM_ROLLBACK", "COM_SET_OPTION", "COM_CREATE_TABLE", "CONNECTIONS",
			"ABORTED_CLIENTS", "HANDLER_READ_KEY", "HANDLER_READ_NEXT", "HANDLER_READ_RND_NEXT", "INNODB_ROWS_READ",
			"INNODB_ROWS_INSERTED", "INNODB_ROWS_UPDATED", "INNODB_ROW_LOCK_WAITS", "INNODB_ROW_LOCK_TIME",
			"INNODB_DEADLOCKS", "INNODB_DATA_FSYNCS");

	/** Gauges whose value at the end is printed. */
	private static final List<String> GAUGES = List.of("INNODB_ROW_LOCK_TIME_MAX", "MAX_USED_CONNECTIONS",
			"THREADS_CONNECTED");

	private final String jdbcUrl;

	private final Map<String, Long> before;

	private final boolean digests;

	private final Map<String, Integer> peaks = new TreeMap<>();

	private final Duration sampleEvery;

	private final Thread sampler;

	private volatile boolean stopped;

	private final long startNanos = System.nanoTime();

	private MariaDbWatch(String jdbcUrl, Duration sampleEvery) {
		this.jdbcUrl = jdbcUrl;
		this.sampleEvery = sampleEvery;
		this.before = status();
		this.digests = "ON".equalsIgnoreCase(single("SELECT @@performance_schema"))
				|| "1".equals(single("SELECT @@performance_schema"));
		if (this.digests) {
			execute("TRUNCATE TABLE performance_schema.events_statements_summary_by_digest");
		}
		this.sampler = new Thread(this::sample, "mariadb-watch");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/**
	 * Starts watching a server.
	 * @param jdbcUrl how to reach it as root
	 * @param sampleEvery how often to read its process list
	 * @return the watch, printed and stopped by {@link #print}
	 */
	static MariaDbWatch start(String jdbcUrl, Duration sampleEvery) {
		return new MariaDbWatch(jdbcUrl, sampleEvery);
	}

	/**
	 * Stops watching and prints what the server did.
	 * @param out where
	 * @param title what the phase was
	 * @param claims the claims made in it, to count per claim
	 */
	void print(PrintStream out, String title, int claims) {
		close();
		double seconds = (System.nanoTime() - this.startNanos) / 1e9;
		Map<String, Long> after = status();
		out.printf("#### The server during %s (%.1f s, %d claims made)%n%n", title, seconds, claims);
		MarkdownTable counters = new MarkdownTable("status counter", "growth", "per claim made").leftAligned(0);
		for (String name : COUNTERS) {
			long growth = after.getOrDefault(name, 0L) - this.before.getOrDefault(name, 0L);
			counters.row(name, String.format(Locale.ROOT, "%,d", growth),
					(claims > 0) ? String.format(Locale.ROOT, "%,.1f", (double) growth / claims) : "–");
		}
		for (String name : GAUGES) {
			counters.row(name + " (at the end)", String.format(Locale.ROOT, "%,d", after.getOrDefault(name, 0L)), "");
		}
		counters.print(out);
		out.println();
		out.println("Most sessions at once in the process list, by command, state and statement (sampled every "
				+ this.sampleEvery.toMillis() + " ms):");
		out.println();
		MarkdownTable peaks = new MarkdownTable("command / state / statement", "most at once").leftAligned(0);
		synchronized (this.peaks) {
			this.peaks.entrySet()
				.stream()
				.sorted((a, b) -> Integer.compare(b.getValue(), a.getValue()))
				.limit(12)
				.forEach((peak) -> peaks.row(peak.getKey(), peak.getValue()));
		}
		peaks.print(out);
		out.println();
		if (this.digests) {
			printDigests(out);
		}
	}

	private void printDigests(PrintStream out) {
		out.println("Statements by digest (performance_schema), the most run first:");
		out.println();
		MarkdownTable table = new MarkdownTable("statement", "runs", "rows examined per run", "lock time per run",
				"time per run")
			.leftAligned(0);
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, "root", "");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT LEFT(DIGEST_TEXT, 110), COUNT_STAR, "
						+ "SUM_ROWS_EXAMINED / COUNT_STAR, SUM_LOCK_TIME / COUNT_STAR / 1e9, "
						+ "SUM_TIMER_WAIT / COUNT_STAR / 1e9 FROM performance_schema.events_statements_summary_by_digest "
						+ "WHERE SCHEMA_NAME = 'test' ORDER BY COUNT_STAR DESC LIMIT 16")) {
			while (rows.next()) {
				table.row(String.valueOf(rows.getString(1)).replace('|', '/'),
						String.format(Locale.ROOT, "%,d", rows.getLong(2)),
						String.format(Locale.ROOT, "%,.1f", rows.getDouble(3)),
						String.format(Locale.ROOT, "%.2f ms", rows.getDouble(4)),
						String.format(Locale.ROOT, "%.2f ms", rows.getDouble(5)));
			}
		}
		catch (SQLException ex) {
			out.println("(not read: " + ex.getMessage() + ")");
			return;
		}
		table.print(out);
		out.println();
	}

	@Override
	public void close() {
		this.stopped = true;
		try {
			this.sampler.join(5_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void sample() {
		// The statement without the SET STATEMENT ... FOR that uid puts before some of its statements on MariaDB.
		String sql = "SELECT COMMAND, COALESCE(STATE, ''), LEFT(REGEXP_REPLACE(COALESCE(INFO, ''), "
				+ "'^SET STATEMENT .*? FOR ', ''), 40), COUNT(*) FROM information_schema.PROCESSLIST "
				+ "WHERE ID <> CONNECTION_ID() GROUP BY 1, 2, 3";
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, "root", "");
				Statement statement = connection.createStatement()) {
			while (!this.stopped) {
				Map<String, Integer> now = new HashMap<>();
				try (ResultSet rows = statement.executeQuery(sql)) {
					while (rows.next()) {
						String key = rows.getString(1) + " / " + rows.getString(2) + " / "
								+ rows.getString(3).replaceAll("\\s+", " ").replace('|', '/');
						now.merge(key, rows.getInt(4), Integer::sum);
					}
				}
				synchronized (this.peaks) {
					now.forEach((key, count) -> this.peaks.merge(key, count, Math::max));
				}
				Thread.sleep(this.sampleEvery.toMillis());
			}
		}
		catch (SQLException ex) {
			// The server went away: what was seen stays.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private Map<String, Long> status() {
		Map<String, Long> values = new LinkedHashMap<>();
		List<String> names = new ArrayList<>(COUNTERS);
		names.addAll(GAUGES);
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, "root", "");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM "
						+ "information_schema.GLOBAL_STATUS")) {
			while (rows.next()) {
				String name = rows.getString(1).toUpperCase(Locale.ROOT);
				if (names.contains(name)) {
					values.put(name, Long.parseLong(rows.getString(2).replaceAll("\\..*", "")));
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot read the status of " + this.jdbcUrl, ex);
		}
		return values;
	}

	private String single(String sql) {
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, "root", "");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(sql)) {
			return rows.next() ? rows.getString(1) : "";
		}
		catch (SQLException ex) {
			return "";
		}
	}

	private void execute(String sql) {
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, "root", "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
