package io.github.uidgen.mybatis.app;

import io.github.uidgen.persistence.UidId;

/** Objects whose {@code @UidId} cannot be filled. */
public final class Misfits {

	private Misfits() {
	}

	/** An ID of the wrong type. */
	public static class TextId {

		@UidId
		public String id;

		public String customer = "acme";

	}

	/**
	 * A record: its ID cannot change after construction.
	 * @param id the ID
	 * @param customer the customer
	 */
	public record Frozen(@UidId Long id, String customer) {
	}

}
