package io.github.uidgen.autoconfigure.jackson;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * Spring MVC, Jackson and uid from auto-configuration; the stores on the test class path for other tests are left
 * out.
 */
@SpringBootApplication(proxyBeanMethods = false,
		exclude = { DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class,
				HibernateJpaAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class })
class JsonIdsTestApplication {

}
