package io.github.uidgen.autoconfigure.data.jpa;

import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * A JPA application with the uid starter; the test's own table name comes in through {@code test.table}.
 */
@SpringBootApplication(proxyBeanMethods = false, exclude = { DataJdbcRepositoriesAutoConfiguration.class,
		DataRedisAutoConfiguration.class, DataRedisRepositoriesAutoConfiguration.class })
class JpaTestApplication {

	@Bean
	PhysicalNamingStrategyStandardImpl testTableNaming(Environment environment) {
		String table = environment.getRequiredProperty("test.table");
		return new PhysicalNamingStrategyStandardImpl() {

			@Override
			public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment context) {
				return PurchaseOrder.TABLE.equals(logicalName.getText()) ? Identifier.toIdentifier(table)
						: logicalName;
			}

		};
	}

}
