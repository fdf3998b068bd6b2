package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/migrating-from-baidu.md} as the tests that run it read it: its YAML blocks after a marker, loaded as
 * an application's configuration, on the MariaDB of the tests with a {@code WORKER_NODE} table that already counted
 * 3,000 starts, as the guide's setup has.
 */
final class BaiduMigrationGuide {

	/** The largest stored Baidu ID the guide's layout was chosen for. */
	static final long LARGEST_STORED = 5_514_325_674_048_299_007L;

	/** Marks the {@code application.yml} of section 3. */
	static final String SECTION_3 = "<!-- The block below is loaded, as it is, by BaiduMigrationGuideTests";

	private static final Path GUIDE = Path.of("..", "docs", "migrating-from-baidu.md");

	private BaiduMigrationGuide() {
	}

	static String read() {
		try {
			return Files.readString(GUIDE, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The first {@code count} YAML blocks after a marker, as the guide writes them. */
	static List<String> yamlBlocksAfter(String guide, String marker, int count) {
		int from = guide.indexOf(marker);
		assertThat(from).as("marker in the guide").isNotNegative();
		List<String> blocks = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			int start = guide.indexOf("```yaml\n", from) + "```yaml\n".length();
			int end = guide.indexOf("```", start);
			blocks.add(guide.substring(start, end));
			from = end + 3;
		}
		return blocks;
	}

	/** A Baidu {@code WORKER_NODE} table of a name of its own whose next ID is 3001; the caller drops it. */
	static String createWorkerNodeTable(HikariDataSource dataSource) {
		String table = TestDatabases.uniqueTable("uid_worker_node");
		TestDatabases.execute(dataSource, "CREATE TABLE " + table + " (ID BIGINT NOT NULL AUTO_INCREMENT, "
				+ "HOST_NAME VARCHAR(64) NOT NULL, PORT VARCHAR(64) NOT NULL, TYPE INT NOT NULL, "
				+ "LAUNCH_DATE DATE NOT NULL, MODIFIED TIMESTAMP NOT NULL, CREATED TIMESTAMP NOT NULL, "
				+ "PRIMARY KEY(ID)) ENGINE = INNODB AUTO_INCREMENT = 3001");
		return table;
	}

	/**
	 * An application on the database with the YAML blocks as its configuration, the first block taking precedence
	 * over the next, as a profile's file does over {@code application.yml}.
	 */
	static ApplicationContextRunner application(HikariDataSource dataSource, String... yamlBlocks) {
		List<PropertySource<?>> sources = new ArrayList<>();
		for (int i = 0; i < yamlBlocks.length; i++) {
			sources.addAll(load("guide block " + (i + 1), yamlBlocks[i]));
		}
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
			.withInitializer(
					(context) -> sources.forEach((source) -> context.getEnvironment().getPropertySources().addLast(source)))
			.withPropertyValues("spring.datasource.url=" + dataSource.getJdbcUrl(),
					"spring.datasource.username=" + dataSource.getUsername(), "spring.datasource.password=");
	}

	private static List<PropertySource<?>> load(String name, String yaml) {
		try {
			return new YamlPropertySourceLoader().load(name,
					new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
