package io.github.uidgen.shardingsphere.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sharded application: its data source is ShardingSphere's driver on a YAML given by
 * {@code spring.datasource.url}; MyBatis-Plus finds the mappers of this package.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class ShardingTestApplication {

}
