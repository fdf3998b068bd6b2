package io.github.uidgen.shardingsphere;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import io.github.uidgen.testsupport.ScratchDatabase;

/**
 * Two MariaDB databases of the test's own, standing for ShardingSphere's {@code ds_0} and {@code ds_1}, with the
 * tables of the test YAML in each, and that YAML written out with their names so each test gets its own
 * ShardingSphere data source (its driver keeps one per URL for the whole JVM). Dropped on close.
 *
 * <p>The monthly order tables are those of the current year, so that IDs issued now always have a table, whatever
 * year the tests run in.
 */
final class ShardedDatabases implements AutoCloseable {

	/** The year of the monthly order tables: this one, in UTC, the zone the YAML cuts months in. */
	static final int YEAR = Year.now(ZoneOffset.UTC).getValue();

	/** The suffixes of the monthly order tables, {@code yyyyMM}. */
	static final List<String> ORDER_MONTHS = IntStream.rangeClosed(1, 12)
		.mapToObj((month) -> String.format("%d%02d", YEAR, month))
		.toList();

	private final List<ScratchDatabase> databases = new ArrayList<>();

	ShardedDatabases() {
		List<String> tables = new ArrayList<>();
		for (String month : ORDER_MONTHS) {
			tables.add("CREATE TABLE ${db}.t_order_" + month + " (id BIGINT PRIMARY KEY, item VARCHAR(64) NOT NULL)");
		}
		for (int t = 0; t < 2; t++) {
			tables.add("CREATE TABLE ${db}.t_item_" + t + " (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
		}
		try {
			for (int i = 0; i < 2; i++) {
				this.databases.add(new ScratchDatabase("uid_ss_ds_" + i, tables.toArray(String[]::new)));
			}
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	/**
	 * Writes a YAML of the test resources with this pair's database names and returns its driver URL.
	 * @param resource the YAML template, with {@code @ds_0@} and {@code @ds_1@} for the database names and
	 * {@code @year@} for {@link #YEAR}
	 * @param edits pairs of a text of the template and what to write instead, for a YAML with one thing wrong
	 * @return a {@code jdbc:shardingsphere:absolutepath:} URL
	 */
	String url(String resource, String... edits) {
		try (InputStream in = ShardedDatabases.class.getResourceAsStream("/" + resource)) {
			String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			for (int i = 0; i < edits.length; i += 2) {
				if (!yaml.contains(edits[i])) {
					throw new IllegalArgumentException(resource + " holds no '" + edits[i] + "' to replace");
				}
				yaml = yaml.replace(edits[i], edits[i + 1]);
			}
			yaml = yaml.replace("@ds_0@", this.databases.get(0).name())
				.replace("@ds_1@", this.databases.get(1).name())
				.replace("@year@", String.valueOf(YEAR));
			String name = resource.replace(".yaml", "") + ((edits.length > 0) ? "-" + UUID.randomUUID() : "") + ".yaml";
			Path file = Files.createDirectories(Path.of("target", "sharding")).resolve(this.databases.get(0).name() + "-" + name);
			Files.writeString(file, yaml);
			return "jdbc:shardingsphere:absolutepath:" + file.toAbsolutePath();
		}
		catch (IOException ex) {
			throw new IllegalStateException(resource, ex);
		}
	}

	/**
	 * Returns the IDs in one actual table, read from MariaDB directly.
	 * @param dataSource {@code ds_0} or {@code ds_1}
	 * @param table the actual table
	 * @return its IDs
	 */
	List<Long> idsIn(String dataSource, String table) {
		List<Long> ids = new ArrayList<>();
		ScratchDatabase database = this.databases.get(Integer.parseInt(dataSource.substring(3)));
		for (List<Object> row : database.query("SELECT id FROM ${db}." + table)) {
			ids.add(((Number) row.get(0)).longValue());
		}
		return ids;
	}

	/**
	 * Returns every row's location: ID to {@code ds.table}, over the actual tables of a logic table.
	 * @param tables the actual table names
	 * @return where each ID sits
	 */
	Map<Long, String> locations(List<String> tables) {
		Map<Long, String> where = new HashMap<>();
		for (String dataSource : List.of("ds_0", "ds_1")) {
			for (String table : tables) {
				for (long id : idsIn(dataSource, table)) {
					String previous = where.put(id, dataSource + "." + table);
					if (previous != null) {
						throw new AssertionError("ID " + id + " sits in " + previous + " and " + dataSource + "." + table);
					}
				}
			}
		}
		return where;
	}

	@Override
	public void close() {
		this.databases.forEach(ScratchDatabase::close);
	}

}
