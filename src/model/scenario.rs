//! Planning scenarios: a name and the planning-meeting settings (request rate, latency target, utilisation, prices,
//! depreciation, message sizes and the GPU model), kept in the design file so a meeting can come back to them.
//! A scenario holds only these settings; applying one replaces them in the design's parameters and swaps its GPUs.

use super::{Params, PartId};
use serde::{Deserialize, Serialize};

/// A named set of planning settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Name shown in the Planning panel and the report; unique within a design.
    pub name: String,
    /// Offered request rate, requests per second (None: the design does not serve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate_rps: Option<f64>,
    /// Serving latency target at p99, milliseconds (None: the design does not serve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_target_ms: Option<f64>,
    /// Planned utilisation of GPUs and links (0-1).
    pub utilisation_target: f64,
    /// Electricity price, USD per kWh.
    pub electricity_usd_per_kwh: f64,
    /// Power usage effectiveness of the facility.
    pub pue: f64,
    /// Cloud price to compare against, USD per GPU-hour; None uses the catalog price of the main GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cloud_usd_per_gpu_hour: Option<f64>,
    /// Depreciation period and TCO horizon, years.
    pub depreciation_years: f64,
    /// All-reduce message size, bytes.
    pub allreduce_bytes: f64,
    /// Message size of the point-to-point latency estimate, bytes.
    pub latency_message_bytes: f64,
    /// The GPU model the design's GPUs are swapped to (None: leave the GPUs as they are).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<PartId>,
    /// GPUs to build the cluster with (None: the design's own). A count, or a GPU model whose server is another
    /// system than the design's (a DGX A100 for a DGX H100 design), makes the scenario a cluster built anew as the
    /// sizing templates build one (`templates::planning`): the same job and settings on another cluster, not the
    /// design's layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_count: Option<u32>,
}

impl Default for Scenario {
    fn default() -> Self {
        Self::from_params("", &Params::default(), None)
    }
}

impl Scenario {
    /// The planning settings of a design's parameters and main GPU, under a name.
    pub fn from_params(name: &str, p: &Params, gpu: Option<PartId>) -> Self {
        Self {
            name: name.to_string(),
            request_rate_rps: p.serving.as_ref().map(|s| s.request_rate_rps),
            latency_target_ms: p.serving.as_ref().map(|s| s.latency_target_ms),
            utilisation_target: p.utilisation_target,
            electricity_usd_per_kwh: p.electricity_usd_per_kwh,
            pue: p.pue,
            cloud_usd_per_gpu_hour: p.cloud_usd_per_gpu_hour,
            depreciation_years: p.depreciation_years,
            allreduce_bytes: p.traffic.allreduce_bytes,
            latency_message_bytes: p.traffic.latency_message_bytes,
            gpu,
            gpu_count: None,
        }
    }

    /// The parameters with this scenario's settings in place of their own; everything else is kept. Serving
    /// figures apply only when the parameters have a service (a scenario does not switch serving on or off).
    pub fn apply_to(&self, p: &Params) -> Params {
        let mut q = p.clone();
        if let Some(s) = q.serving.as_mut() {
            if let Some(r) = self.request_rate_rps {
                s.request_rate_rps = r;
            }
            if let Some(t) = self.latency_target_ms {
                s.latency_target_ms = t;
            }
        }
        q.utilisation_target = self.utilisation_target;
        q.electricity_usd_per_kwh = self.electricity_usd_per_kwh;
        q.pue = self.pue;
        q.cloud_usd_per_gpu_hour = self.cloud_usd_per_gpu_hour;
        q.depreciation_years = self.depreciation_years;
        q.traffic.allreduce_bytes = self.allreduce_bytes;
        q.traffic.latency_message_bytes = self.latency_message_bytes;
        q
    }

    /// Whether two scenarios hold the same settings (names aside).
    pub fn same_settings(&self, other: &Scenario) -> bool {
        Scenario {
            name: other.name.clone(),
            ..self.clone()
        } == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_then_read_back_is_the_same_scenario() {
        let p = Params {
            serving: Some(crate::model::Serving::default()),
            ..Params::default()
        };
        let s = Scenario {
            name: "cheap power".into(),
            request_rate_rps: Some(250.0),
            latency_target_ms: Some(400.0),
            electricity_usd_per_kwh: 0.05,
            pue: 1.4,
            cloud_usd_per_gpu_hour: Some(2.5),
            ..Scenario::from_params("x", &p, None)
        };
        let q = s.apply_to(&p);
        assert_eq!(Scenario::from_params("cheap power", &q, None), s);
        // Settings outside the scenario stay.
        assert_eq!(q.residual_fraction, p.residual_fraction);
        assert!(s.same_settings(&Scenario {
            name: "other".into(),
            ..s.clone()
        }));
    }
}
