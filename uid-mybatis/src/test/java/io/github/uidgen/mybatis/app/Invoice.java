package io.github.uidgen.mybatis.app;

import io.github.uidgen.persistence.UidId;

/** An object with a {@code Long} ID marked {@code @UidId}, as a JPA or Spring Data JDBC entity would carry it. */
public class Invoice {

	@UidId
	private Long id;

	private String customer;

	public Invoice() {
	}

	public Invoice(Long id, String customer) {
		this.id = id;
		this.customer = customer;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getCustomer() {
		return this.customer;
	}

	public void setCustomer(String customer) {
		this.customer = customer;
	}

}
