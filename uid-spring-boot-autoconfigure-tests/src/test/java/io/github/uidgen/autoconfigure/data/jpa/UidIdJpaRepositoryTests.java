package io.github.uidgen.autoconfigure.data.jpa;

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
 * JPA entities whose {@code @Id} carries {@code @UidId}, saved through a Spring Data JPA repository by four
 * threads at once on MariaDB and PostgreSQL: every row gets a distinct ID from the application's generator.
 */
class UidIdJpaRepositoryTests {

	private static final long WORKER_ID = 12;

	@ParameterizedTest
	@EnumSource(Database.class)
	void savedEntitiesGetDistinctIdsFromTheGenerator(Database database) throws Exception {
		String table = TestDatabases.uniqueTable("uid_jpa");
		try (HikariDataSource dataSource = database.open()) {
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaTestApplication.class)
				.web(WebApplicationType.NONE)
				.run("--spring.datasource.url=" + dataSource.getJdbcUrl(),
						"--spring.datasource.username=" + dataSource.getUsername(), "--spring.datasource.password=",
						"--spring.jpa.hibernate.ddl-auto=create", "--spring.jpa.open-in-view=false",
						"--test.table=" + table, "--uid.worker.id=" + WORKER_ID,
						"--uid.worker.static.state-file=target/uid-state/jpa-" + database + ".state")) {
				PurchaseOrderRepository orders = context.getBean(PurchaseOrderRepository.class);
				UidGenerator generator = context.getBean(UidGenerator.class);

				List<Long> ids = RepositorySaves.concurrently(4, 250,
						(n) -> orders.save(new PurchaseOrder("item-" + n)).getId());

				assertThat(ids).hasSize(1000).doesNotHaveDuplicates().doesNotContainNull();
				assertThat(ids).allSatisfy((id) -> assertThat(generator.decode(id).workerId()).isEqualTo(WORKER_ID));
				List<Long> stored = context.getBean(JdbcTemplate.class)
					.queryForList("SELECT id FROM " + table, Long.class);
				assertThat(stored).containsExactlyInAnyOrderElementsOf(ids);
				assertThat(orders.findById(ids.get(0))).hasValueSatisfying(
						(order) -> assertThat(order.getItem()).startsWith("item-"));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

}
