package io.github.uidgen.mybatis.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A MyBatis application: mybatis-spring-boot-starter finds its {@code @Mapper} in this package.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class MybatisTestApplication {

	/** The tables of its mapper, {@code ${db}} standing for the database. */
	public static final String[] TABLES = {
			"CREATE TABLE ${db}.invoice (id BIGINT PRIMARY KEY, customer VARCHAR(64) NOT NULL)",
			"CREATE TABLE ${db}.ticket (id BIGINT PRIMARY KEY, title VARCHAR(64) NOT NULL)" };

}
