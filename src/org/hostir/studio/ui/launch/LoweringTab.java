package org.hostir.studio.ui.launch;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;

/** The lowering options of {@code LoweringOptions}, passed to the run as {@code --option KEY=VALUE}. */
final class LoweringTab extends SettingsTab {
    private Combo allgather;
    private Combo communication;
    private Button offset;
    private Button deallocate;
    private Button forward;

    @Override
    public String getName() { return "Lowering"; }

    @Override
    protected void createFields(Composite parent) {
        allgather = combo(parent, "Allgather lowering:", "p2p", "broadcast", "collective");
        communication = combo(parent, "Communication backend:", "nccl", "cuda");
        offset = check(parent, "Offset stream indexing by rank (each rank starts with its own slice)");
        deallocate = check(parent, "Insert deallocations (free intermediates after their last use)");
        forward = check(parent, "Forward the local shard (the owning P2P iteration computes on its shard, no copy)");
    }

    @Override
    protected void show(LaunchSettings s) {
        select(allgather, s.options().getOrDefault("allgather", "p2p"));
        select(communication, s.options().getOrDefault("backend", "nccl"));
        offset.setSelection(Boolean.parseBoolean(s.options().getOrDefault("offsetStreamIndexingByRank", "false")));
        deallocate.setSelection(Boolean.parseBoolean(s.options().getOrDefault("insertDeallocations", "false")));
        forward.setSelection(Boolean.parseBoolean(s.options().getOrDefault("forwardLocalShard", "false")));
    }

    @Override
    protected LaunchSettings apply(LaunchSettings s) {
        Map<String, String> o = new HashMap<>(s.options());
        o.put("allgather", allgather.getText());
        o.put("backend", communication.getText());
        o.put("offsetStreamIndexingByRank", Boolean.toString(offset.getSelection()));
        o.put("insertDeallocations", Boolean.toString(deallocate.getSelection()));
        o.put("forwardLocalShard", Boolean.toString(forward.getSelection()));
        return new LaunchSettings(s.file(), s.symbols(), s.backend(), s.devices(), s.streams(), s.iterations(),
                s.warmup(), s.validate(), o);
    }
}
