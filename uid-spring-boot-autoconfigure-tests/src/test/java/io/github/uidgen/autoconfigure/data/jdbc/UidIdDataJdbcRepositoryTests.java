package io.github.uidgen.autoconfigure.data.jdbc;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.data.RepositorySaves;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Data JDBC aggregates whose {@code @Id} carries {@code @UidId}, saved through a repository by four threads
 * at once on MariaDB and PostgreSQL: every one is inserted (not updated) with a distinct ID from the generator.
 */
class UidIdDataJdbcRepositoryTests {

	private static final long WORKER_ID = 13;

	@ParameterizedTest
	@EnumSource(Database.class)
	void savedAggregatesAreInsertedWithDistinctIdsFromTheGenerator(Database database) throws Exception {
		String table = TestDatabases.uniqueTable("uid_data_jdbc");
		try (HikariDataSource dataSource = database.open()) {
			TestDatabases.execute(dataSource, "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, customer VARCHAR(64))");
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(DataJdbcTestApplication.class)
				.web(WebApplicationType.NONE)
				.run("--spring.datasource.url=" + dataSource.getJdbcUrl(),
						"--spring.datasource.username=" + dataSource.getUsername(), "--spring.datasource.password=",
						"--test.table=" + table, "--uid.worker.id=" + WORKER_ID,
						"--uid.worker.static.state-file=target/uid-state/data-jdbc-" + database + ".state")) {
				InvoiceRepository invoices = context.getBean(InvoiceRepository.class);
				UidGenerator generator = context.getBean(UidGenerator.class);

				List<Long> ids = RepositorySaves.concurrently(4, 250,
						(n) -> invoices.save(new Invoice(null, "customer-" + n)).id());

				assertThat(ids).hasSize(1000).doesNotHaveDuplicates().doesNotContainNull();
				assertThat(ids).allSatisfy((id) -> assertThat(generator.decode(id).workerId()).isEqualTo(WORKER_ID));
				List<Long> stored = context.getBean(JdbcTemplate.class)
					.queryForList("SELECT id FROM " + table, Long.class);
				assertThat(stored).containsExactlyInAnyOrderElementsOf(ids);
				assertThat(invoices.findById(ids.get(0))).hasValueSatisfying(
						(invoice) -> assertThat(invoice.customer()).startsWith("customer-"));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

}
