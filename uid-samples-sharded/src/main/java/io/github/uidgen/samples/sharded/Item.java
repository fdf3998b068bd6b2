package io.github.uidgen.samples.sharded;

import io.github.uidgen.persistence.UidId;

/** An item: a plain object a MyBatis mapper inserts, its {@code @UidId} filled by uid's interceptor. */
public class Item {

	@UidId
	private Long id;

	private String name;

	public Item(String name) {
		this.name = name;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getName() {
		return this.name;
	}

}
