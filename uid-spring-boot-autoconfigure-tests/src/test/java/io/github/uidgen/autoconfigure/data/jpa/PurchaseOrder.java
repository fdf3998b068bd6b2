package io.github.uidgen.autoconfigure.data.jpa;

import io.github.uidgen.persistence.UidId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The sample JPA entity: its ID comes from the application's {@code UidGenerator} when it is persisted.
 */
@Entity
@Table(name = PurchaseOrder.TABLE)
public class PurchaseOrder {

	/** The logical table name; each test maps it to a table of its own. */
	static final String TABLE = "uid_purchase_order";

	@Id
	@UidId
	private Long id;

	private String item;

	protected PurchaseOrder() {
	}

	public PurchaseOrder(String item) {
		this.item = item;
	}

	public Long getId() {
		return this.id;
	}

	public String getItem() {
		return this.item;
	}

}
