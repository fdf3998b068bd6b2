package io.github.uidgen.autoconfigure.actuate.web;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * The smallest application with uid, Spring MVC and the actuator: everything comes from auto-configuration. The
 * database and Redis, on the test class path for other tests, are left out: this application uses neither.
 */
@SpringBootApplication(proxyBeanMethods = false,
		exclude = { DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class })
class UidEndpointTestApplication {

}
