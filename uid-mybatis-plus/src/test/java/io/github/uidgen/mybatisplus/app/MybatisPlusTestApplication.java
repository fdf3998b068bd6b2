package io.github.uidgen.mybatisplus.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A MyBatis-Plus application: its mappers are found by MyBatis-Plus's own scan of this package.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class MybatisPlusTestApplication {

	/** The tables of its entities, {@code ${db}} standing for the database. */
	public static final String[] TABLES = {
			"CREATE TABLE ${db}.mp_order (id BIGINT PRIMARY KEY, item VARCHAR(64) NOT NULL)",
			"CREATE TABLE ${db}.mp_ticket (id BIGINT PRIMARY KEY, title VARCHAR(64) NOT NULL)",
			"CREATE TABLE ${db}.mp_note (id VARCHAR(20) PRIMARY KEY, text VARCHAR(64) NOT NULL)",
			"CREATE TABLE ${db}.mp_invoice (id BIGINT PRIMARY KEY, customer VARCHAR(64) NOT NULL)" };

}
