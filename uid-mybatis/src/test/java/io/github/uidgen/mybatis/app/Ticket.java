package io.github.uidgen.mybatis.app;

import io.github.uidgen.persistence.UidId;

/** An object with a primitive {@code long} ID marked on its getter, {@code 0} until inserted. */
public class Ticket {

	private long id;

	private final String title;

	public Ticket(String title) {
		this.title = title;
	}

	@UidId
	public long getId() {
		return this.id;
	}

	public void setId(long id) {
		this.id = id;
	}

	public String getTitle() {
		return this.title;
	}

}
