package io.github.uidgen.autoconfigure.data.jdbc;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.relational.core.mapping.NamingStrategy;

/**
 * A Spring Data JDBC application with the uid starter; the test's own table name comes in through
 * {@code test.table}.
 */
@SpringBootApplication(proxyBeanMethods = false, exclude = { HibernateJpaAutoConfiguration.class,
		DataJpaRepositoriesAutoConfiguration.class, DataRedisAutoConfiguration.class,
		DataRedisRepositoriesAutoConfiguration.class })
class DataJdbcTestApplication {

	@Bean
	NamingStrategy testTableNaming(Environment environment) {
		String table = environment.getRequiredProperty("test.table");
		return new NamingStrategy() {

			@Override
			public String getTableName(Class<?> type) {
				return (type == Invoice.class) ? table : NamingStrategy.super.getTableName(type);
			}

		};
	}

}
