package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import io.github.uidgen.mybatisplus.UidSegmentKey;

/** An entity numbered by a segment key of its own when the application runs the segment generator. */
@UidSegmentKey("invoice")
@TableName("mp_invoice")
public class Invoice {

	@TableId(type = IdType.ASSIGN_ID)
	private Long id;

	private String customer;

	public Invoice() {
	}

	public Invoice(String customer) {
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
