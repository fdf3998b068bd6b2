package io.github.uidgen.shardingsphere.app;

import io.github.uidgen.persistence.UidId;

/** An object inserted by a plain MyBatis mapper, its ID filled by uid's interceptor. */
public class Item {

	@UidId
	private Long id;

	private String name;

	public Item() {
	}

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

	public void setName(String name) {
		this.name = name;
	}

}
