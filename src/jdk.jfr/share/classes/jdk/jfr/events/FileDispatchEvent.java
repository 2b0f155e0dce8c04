/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

package jdk.jfr.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.internal.MirrorEvent;
import jdk.jfr.internal.Type;

@Name(Type.EVENT_NAME_PREFIX + "FileDispatch")
@Label("File Dispatch")
@Category("Java Application")
@Description("How a file read or write was carried out: from the page cache, blocking the"
        + " thread, blocking with compensation, or through io_uring")
public final class FileDispatchEvent extends MirrorEvent {

    // The order of these fields must be the same as the parameters in
    // commit(..., String, boolean, long)

    @Label("Route")
    @Description("page cache, blocked, compensated, io_uring, or fallback (a ring could not"
            + " do it)")
    public String route;

    @Label("Write")
    @Description("Whether the operation was a write")
    public boolean write;

    @Label("Bytes")
    @Description("Number of bytes transferred")
    @DataAmount
    public long bytes;

}
